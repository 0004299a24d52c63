import { registrationVerifiedResponse, type RegistrationVerified } from '@bulwark/domain';
import { Anchor, Button, Code, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { THANKYOU_STORAGE_KEY } from './verify-page.js';

function finished(state: unknown): RegistrationVerified | null {
  const fromState = registrationVerifiedResponse.safeParse(state);
  if (fromState.success) return fromState.data;
  try {
    const stored = registrationVerifiedResponse.safeParse(JSON.parse(sessionStorage.getItem(THANKYOU_STORAGE_KEY) ?? 'null'));
    return stored.success ? stored.data : null;
  } catch {
    return null;
  }
}

/** /thankyou: where the new organisation lives, and the way to sign in there. */
export function ThankYouPage() {
  const { t, i18n } = useTranslation();
  const { state } = useLocation();
  const done = finished(state);

  if (!done) {
    return (
      <Paper withBorder p="lg" radius="md" maw={520} mx="auto">
        <Stack>
          <Text>{t('registration.thankyou.missing')}</Text>
          <Anchor component={Link} to="/registration">
            {t('registration.thankyou.register')}
          </Anchor>
        </Stack>
      </Paper>
    );
  }
  const signInUrl = `${done.organization_url}/login`;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(new Date(done.trial_ends_at));
  return (
    <Paper withBorder p="lg" radius="md" maw={520} mx="auto">
      <Stack>
        <Title order={1} size="h3">
          {t('registration.thankyou.title')}
        </Title>
        <Text>{t('registration.thankyou.body', { organization: done.organization_name })}</Text>
        <Code block fz="md" data-testid="organization-url" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {done.organization_url}
        </Code>
        <Text size="sm">{t('registration.thankyou.trialEnds', { date })}</Text>
        <Text size="sm" c="dimmed">
          {t('registration.thankyou.nextStep')}
        </Text>
        <Button component="a" href={signInUrl}>
          {t('registration.thankyou.signIn', { organization: done.organization_name })}
        </Button>
      </Stack>
    </Paper>
  );
}
