import {
  API_TOKEN_MAX_DAYS,
  apiTokenCreateBody,
  serviceAccountCreateBody,
  serviceAccountUpdateBody,
  type ServiceAccount,
} from '@bulwark/domain';
import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate, type FieldErrors } from '../../ui/forms/validation.js';
import { useApiTokenCommands, useRoleOptions } from './integrations-api.js';

/** The lifetimes offered for a new token, in days; "never" lasts until it is revoked. */
const EXPIRY_DAYS = [30, 90, 365, API_TOKEN_MAX_DAYS] as const;

/** A new account's field errors, named apart from the token's own `name`. */
function accountFields(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(errors)) out[k === 'name' ? 'account_name' : k] = v;
  return out;
}

/**
 * A new API token: for an existing active service account, or for a new one made in the same step
 * (name and role, as the contract requires). The secret goes to `onCreated` to be shown once. Mounted
 * only while open, so each opening starts empty.
 */
export function TokenDialog({
  accountId,
  accounts,
  onClose,
  onCreated,
}: {
  accountId: string | null;
  accounts: ServiceAccount[];
  onClose: () => void;
  onCreated: (secret: string) => void;
}) {
  const { t } = useTranslation();
  const commands = useApiTokenCommands();
  const roles = useRoleOptions();
  const { busy, errors, message, run, refuse } = useFormSubmit();
  const active = accounts.filter((a) => a.active);
  const [mode, setMode] = useState<'existing' | 'new'>(active.length > 0 ? 'existing' : 'new');
  const [account, setAccount] = useState<string | null>(accountId ?? (active.length === 1 ? active[0]!.id : null));
  const [accountName, setAccountName] = useState('');
  const [roleId, setRoleId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<string>('never');

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const tokenBody = { name, expires_in_days: expiry === 'never' ? null : Number(expiry) };
    const found: FieldErrors = { ...(validate(apiTokenCreateBody, tokenBody, t).errors ?? {}) };
    if (mode === 'new') {
      Object.assign(found, accountFields(validate(serviceAccountCreateBody, { name: accountName, role_id: roleId ?? '' }, t).errors ?? {}));
    } else if (!account) {
      found.account = t('validation.required');
    }
    if (refuse(Object.keys(found).length > 0 ? found : null)) return;
    await run(async () => {
      let target = account;
      if (mode === 'new') {
        try {
          target = (await commands.createAccount({ name: accountName, role_id: roleId ?? '' })).id;
        } catch (error) {
          throw isApiError(error) ? new ApiError(error.message, error.status, error.code, accountFields(error.fields)) : error;
        }
        // Made: a refused token below is retried for this account, not for yet another new one.
        setAccount(target);
        setMode('existing');
      }
      const created = await commands.createToken(target!, tokenBody);
      onCreated(created.secret);
    });
  }

  return (
    <Modal opened onClose={onClose} title={t('apiTokens.newToken')} centered>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <Stack>
          {message ? (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          ) : null}
          <TextInput
            label={t('apiTokens.tokenName')}
            placeholder={t('apiTokens.tokenNamePlaceholder')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <Select
            label={t('apiTokens.expiry')}
            value={expiry}
            onChange={(v) => setExpiry(v ?? 'never')}
            allowDeselect={false}
            error={errors.expires_in_days}
            data={[
              { value: 'never', label: t('apiTokens.expiryNever') },
              ...EXPIRY_DAYS.map((d) => ({ value: String(d), label: t('apiTokens.expiryDays', { count: d }) })),
            ]}
          />
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('apiTokens.serviceAccount')}
            </Text>
            {active.length > 0 ? (
              <SegmentedControl
                fullWidth
                value={mode}
                onChange={(v) => setMode(v as 'existing' | 'new')}
                data={[
                  { value: 'existing', label: t('apiTokens.accountMode.existing') },
                  { value: 'new', label: t('apiTokens.accountMode.new') },
                ]}
              />
            ) : null}
            {mode === 'existing' ? (
              <Select
                aria-label={t('apiTokens.serviceAccount')}
                required
                searchable
                value={account}
                onChange={setAccount}
                error={errors.account}
                data={active.map((a) => ({ value: a.id, label: a.role_name ? `${a.name} (${a.role_name})` : a.name }))}
              />
            ) : (
              <>
                <TextInput
                  label={t('apiTokens.name')}
                  placeholder={t('apiTokens.namePlaceholder')}
                  required
                  value={accountName}
                  onChange={(e) => setAccountName(e.currentTarget.value)}
                  error={errors.account_name}
                />
                <Select
                  label={t('apiTokens.role')}
                  required
                  searchable
                  value={roleId}
                  onChange={setRoleId}
                  error={errors.role_id ?? (roles.isError ? t('kit.loadFailed') : undefined)}
                  data={roles.data ?? []}
                />
              </>
            )}
            <Text size="xs" c="dimmed">
              {t('apiTokens.accountHelp')}
            </Text>
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('apiTokens.createToken')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A new service account (name and role), or an existing one's name, role and switch. Mounted only while open. */
export function AccountDialog({ account, onClose }: { account: ServiceAccount | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useApiTokenCommands();
  const roles = useRoleOptions();
  const { busy, errors, message, run, refuse } = useFormSubmit();
  const existing = account === 'new' ? null : account;
  const [name, setName] = useState(existing?.name ?? '');
  const [roleId, setRoleId] = useState<string | null>(existing?.role_id ?? null);
  const [active, setActive] = useState(existing?.active ?? true);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (existing) {
      const body = { name, role_id: roleId ?? undefined, active };
      if (refuse(validate(serviceAccountUpdateBody, body, t).errors)) return;
      await run(async () => {
        await commands.updateAccount(existing.id, body);
        notifySuccess(t('apiTokens.saved'));
        onClose();
      });
      return;
    }
    const body = { name, role_id: roleId ?? '' };
    if (refuse(validate(serviceAccountCreateBody, body, t).errors)) return;
    await run(async () => {
      await commands.createAccount(body);
      notifySuccess(t('apiTokens.saved'));
      onClose();
    });
  }

  return (
    <Modal opened onClose={onClose} title={existing ? t('apiTokens.editAccount') : t('apiTokens.newAccount')} centered>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <Stack>
          {message ? (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          ) : null}
          <TextInput
            label={t('apiTokens.name')}
            placeholder={t('apiTokens.namePlaceholder')}
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <Select
            label={t('apiTokens.role')}
            required
            searchable
            value={roleId}
            onChange={setRoleId}
            error={errors.role_id ?? (roles.isError ? t('kit.loadFailed') : undefined)}
            data={roles.data ?? []}
          />
          {existing ? (
            <Switch
              label={t('apiTokens.active')}
              description={t('apiTokens.activeHelp')}
              checked={active}
              onChange={(e) => setActive(e.currentTarget.checked)}
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
