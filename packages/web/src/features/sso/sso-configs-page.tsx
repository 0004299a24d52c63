import { ssoConfigBody, type SsoConfigResponse } from '@bulwark/domain';
import { Alert, Button, Code, Group, Loader, Paper, PasswordInput, Select, Stack, Switch, TagsInput, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useProfile } from '../../app/use-profile.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate, type FieldErrors } from '../../ui/forms/validation.js';
import { PageHeader, useConfirm } from '../../ui/index.js';
import { useSsoSettings, useSsoSettingsCommands } from './sso-api.js';

/** Server field keys such as `allowed_domains.2` belong under their input. */
function byInput(fields: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, text] of Object.entries(fields)) out[key.split('.')[0]!] ??= text;
  return out;
}

export function SsoConfigsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const isAdmin = profile?.user.is_admin === true;
  const query = useSsoSettings(isAdmin);

  let body;
  if (!profile) body = <Loader aria-label={t('common.loading')} />;
  else if (!isAdmin) body = <Alert color="yellow">{t('sso.settings.adminOnly')}</Alert>;
  else if (query.isPending) body = <Loader aria-label={t('common.loading')} />;
  else if (query.isError || !query.data) {
    body = (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('sso.settings.loadFailed')}</Text>
          <Button size="xs" variant="light" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  } else body = <SsoSettingsForm key={query.data.updated_at ?? 'new'} settings={query.data} />;

  return (
    <Stack maw={760}>
      <PageHeader title={t('sso.settings.title')} description={t('sso.settings.intro')} />
      {body}
    </Stack>
  );
}

function SsoSettingsForm({ settings }: { settings: SsoConfigResponse }) {
  const { t } = useTranslation();
  const commands = useSsoSettingsCommands();
  const { busy, errors, message, run, refuse } = useFormSubmit();
  const [confirm, dialog] = useConfirm();
  const [issuerUrl, setIssuerUrl] = useState(settings.issuer_url);
  const [clientId, setClientId] = useState(settings.client_id);
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState<string[]>(settings.allowed_domains);
  const [enabled, setEnabled] = useState(settings.configured ? settings.enabled : true);
  const [createUsers, setCreateUsers] = useState(settings.create_users);
  const [roleId, setRoleId] = useState<string | null>(settings.default_role_id);
  const shown = byInput(errors);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validate(
      ssoConfigBody,
      {
        issuer_url: issuerUrl,
        client_id: clientId,
        client_secret: clientSecret,
        allowed_domains: domains,
        enabled,
        create_users: createUsers,
        default_role_id: roleId,
      },
      t,
    );
    if (refuse(checked.errors) || !checked.data) return;
    const body = checked.data;
    await run(async () => {
      await commands.save(body);
      setClientSecret('');
      notifySuccess(t('sso.settings.saved'));
    });
  }

  async function remove() {
    const ok = await confirm({
      title: t('sso.settings.removeTitle'),
      message: t('sso.settings.removeBody'),
      confirmLabel: t('sso.settings.remove'),
      danger: true,
    });
    if (!ok) return;
    await run(async () => {
      await commands.remove();
      notifySuccess(t('sso.settings.removed'));
    });
  }

  return (
    <Paper withBorder p="lg" radius="md">
      {dialog}
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <Stack>
          {!settings.configured && <Alert color="blue">{t('sso.settings.notConfigured')}</Alert>}
          {message && (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          )}
          <Switch label={t('sso.settings.enabled')} checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <TextInput
            label={t('sso.settings.issuerUrl')}
            description={t('sso.settings.issuerHelp')}
            required
            type="url"
            inputMode="url"
            placeholder="https://login.example.com"
            value={issuerUrl}
            onChange={(e) => setIssuerUrl(e.currentTarget.value)}
            error={shown.issuer_url}
          />
          <TextInput
            label={t('sso.settings.clientId')}
            required
            value={clientId}
            onChange={(e) => setClientId(e.currentTarget.value)}
            error={shown.client_id}
            autoComplete="off"
          />
          <PasswordInput
            label={t('sso.settings.clientSecret')}
            description={settings.client_secret_set ? t('sso.settings.clientSecretSet') : t('sso.settings.clientSecretHelp')}
            required={!settings.client_secret_set}
            value={clientSecret}
            onChange={(e) => setClientSecret(e.currentTarget.value)}
            error={shown.client_secret}
            autoComplete="new-password"
            placeholder={settings.client_secret_set ? '••••••••' : undefined}
            visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
          />
          <TagsInput
            label={t('sso.settings.allowedDomains')}
            description={t('sso.settings.allowedDomainsHelp')}
            placeholder={t('sso.settings.allowedDomainsPlaceholder')}
            value={domains}
            onChange={setDomains}
            error={shown.allowed_domains}
            splitChars={[',', ' ', ';']}
            clearable
          />
          <Switch
            label={t('sso.settings.createUsers')}
            description={t('sso.settings.createUsersHelp')}
            checked={createUsers}
            onChange={(e) => setCreateUsers(e.currentTarget.checked)}
          />
          {createUsers && (
            <Select
              label={t('sso.settings.defaultRole')}
              placeholder={t('sso.settings.noRole')}
              required
              data={settings.roles.map((r) => ({ value: r.id, label: r.name }))}
              value={roleId}
              onChange={setRoleId}
              error={shown.default_role_id}
              searchable
              allowDeselect={false}
            />
          )}
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('sso.settings.redirectUri')}
            </Text>
            <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {settings.redirect_uri}
            </Code>
          </Stack>
          <Group justify="space-between" wrap="wrap">
            {settings.configured ? (
              <Button variant="subtle" color="red" onClick={() => void remove()} disabled={busy}>
                {t('sso.settings.remove')}
              </Button>
            ) : (
              <span />
            )}
            <Button type="submit" loading={busy}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
