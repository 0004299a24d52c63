import { SSO_ERROR_PARAM, isSsoErrorCode, type SsoErrorCode } from '@bulwark/domain';
import { Anchor, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { useServices } from '../../app/services.js';
import { afterSignInTarget } from '../auth/after-sign-in.js';
import { completeSignIn } from '../auth/complete-sign-in.js';
import { SessionTransition } from '../auth/session-transition.js';
import { useRunOnce } from '../auth/use-run-once.js';
import { SSO_START_PATH, useSsoSignInCommands } from './sso-api.js';

/** Why an exchange was refused, as the login page names it. */
function failureCode(error: unknown): SsoErrorCode {
  const code = isApiError(error) ? error.code : '';
  return isSsoErrorCode(code) ? code : 'expired';
}

/**
 * /sso: without a code it offers to go to the identity provider; with the one-time code the server's
 * callback gave, it trades the code for the session (the tokens never travel in a URL) and signs in.
 */
export function SsoPage() {
  const [params] = useSearchParams();
  const code = params.get('code');
  return code ? <CompleteSsoSignIn code={code} /> : <StartSso />;
}

function CompleteSsoSignIn({ code }: { code: string }) {
  const { t } = useTranslation();
  const services = useServices();
  const commands = useSsoSignInCommands();
  const navigate = useNavigate();

  // Once per mount: the code is single use.
  useRunOnce(() => {
    void (async () => {
      try {
        const response = await commands.exchange(code);
        const principal = completeSignIn(services, response);
        void navigate(afterSignInTarget(null, principal, services.location.host), { replace: true });
      } catch (error) {
        void navigate(`/login?${SSO_ERROR_PARAM}=${failureCode(error)}`, { replace: true });
      }
    })();
  });

  return <SessionTransition label={t('sso.completing')} />;
}

function StartSso() {
  const { t } = useTranslation();
  const { location } = useServices();
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack>
        <Title order={1} size="h3">
          {t('sso.title')}
        </Title>
        <Text size="sm">{t('sso.signInHelp')}</Text>
        <Button fullWidth onClick={() => location.assign(SSO_START_PATH)}>
          {t('sso.continueToProvider')}
        </Button>
        <Anchor component={Link} to="/login" size="sm">
          {t('auth.backToSignIn')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
