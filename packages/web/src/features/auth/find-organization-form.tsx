import { subdomainProblem } from '@bulwark/domain';
import { Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { organizationLoginUrl } from '../../api/tenant-host.js';
import { useServices } from '../../app/services.js';
import { serverErrors } from '../../ui/forms/validation.js';
import { useAuthCommands } from './auth-api.js';

/** On the bare domain: find the organisation's own address, then go to its sign-in page. */
export function FindOrganizationForm() {
  const { t } = useTranslation();
  const { location } = useServices();
  const { lookupOrganization } = useAuthCommands();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const subDomain = String(new FormData(event.currentTarget).get('sub_domain') ?? '')
      .trim()
      .toLowerCase();
    if (!subDomain) return setError(t('validation.required'));
    const problem = subdomainProblem(subDomain);
    if (problem) return setError(t(`validation.subdomain.${problem}`));
    setError(null);
    setBusy(true);
    try {
      const answer = await lookupOrganization(subDomain);
      if (answer?.found) location.assign(organizationLoginUrl(subDomain, location));
      else setError(t('auth.organizationNotFound'));
    } catch (failure) {
      setError(serverErrors(failure, t('errors.somethingWentWrong')).message ?? t('errors.somethingWentWrong'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack>
        <Title order={1} size="h3">
          {t('auth.findOrganizationTitle')}
        </Title>
        <Text size="sm">{t('auth.findOrganizationHelp')}</Text>
        <form onSubmit={submit} noValidate aria-busy={busy}>
          <Stack>
            <TextInput
              name="sub_domain"
              label={t('auth.subdomain')}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              rightSection={
                <Text size="xs" c="dimmed" pr="xs">
                  .{location.host.split(':')[0]}
                </Text>
              }
              rightSectionWidth="auto"
              error={error}
              required
            />
            <Button type="submit" loading={busy}>
              {t('auth.go')}
            </Button>
          </Stack>
        </form>
        <Anchor component={Link} to="/login?platform=1" size="sm">
          {t('auth.platformSignIn')}
        </Anchor>
      </Stack>
    </Paper>
  );
}
