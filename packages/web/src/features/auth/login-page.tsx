import { PUBLIC_TENANT, SSO_ERROR_PARAM, ssoErrorMessageKey, type SignInResponse } from '@bulwark/domain';
import { Alert, Anchor, Button, Divider, Group, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { tenantOfHost } from '../../api/tenant-host.js';
import { useServices } from '../../app/services.js';
import { afterSignInTarget } from './after-sign-in.js';
import { useSsoStatus } from './auth-api.js';
import { completeSignIn } from './complete-sign-in.js';
import { FindOrganizationForm } from './find-organization-form.js';
import { SignInForm } from './sign-in-form.js';

export function LoginPage() {
  const { t } = useTranslation();
  const services = useServices();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tenant = tenantOfHost(services.location.host);
  const onPublic = tenant === PUBLIC_TENANT;
  const ssoError = params.get(SSO_ERROR_PARAM);
  const sso = useSsoStatus(tenant, !onPublic);

  // The bare domain first helps people find their organisation; its sign-in form is the platform administrator's.
  if (onPublic && params.get('platform') !== '1') return <FindOrganizationForm />;

  const onSignedIn = (response: SignInResponse) => {
    const principal = completeSignIn(services, response);
    void navigate(afterSignInTarget(params.get('redirect'), principal, services.location.host), { replace: true });
  };

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack>
        <Title order={1} size="h3">
          {onPublic ? t('auth.signInPlatformTitle') : t('auth.signInTitle', { organization: tenant })}
        </Title>
        {ssoError !== null && (
          <Alert color="red" role="alert" title={t('sso.failedTitle')}>
            {t(ssoErrorMessageKey(ssoError))}
          </Alert>
        )}
        <SignInForm onSignedIn={onSignedIn} />
        {sso.data?.enabled && (
          <>
            <Divider />
            <Button component={Link} to="/sso" variant="default" fullWidth>
              {t('sso.signInWithSso')}
            </Button>
          </>
        )}
        <Group justify="space-between">
          <Anchor component={Link} to="/password-reset" size="sm">
            {t('auth.forgotPassword')}
          </Anchor>
          {onPublic && (
            <Anchor component={Link} to="/login" size="sm">
              {t('auth.findOrganizationTitle')}
            </Anchor>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
