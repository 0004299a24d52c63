import type { ApiToken, ServiceAccount } from '@bulwark/domain';
import { Anchor, Badge, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormats } from '../../ui/format.js';
import { DataTable, useConfirm, type Column } from '../../ui/index.js';
import { AccountDialog, TokenDialog } from './api-token-dialogs.js';
import { useApiTokenCommands, useServiceAccounts } from './integrations-api.js';
import { SecretReveal } from './secret-reveal.js';

type TokenRow = { token: ApiToken; account: ServiceAccount };
type TokenState = 'revoked' | 'expired' | 'accountInactive' | 'valid';

/** Revoked first, then expired, then the account's own switch: the reason the token is refused. */
export function tokenState(token: ApiToken, account: ServiceAccount, now = Date.now()): TokenState {
  if (token.revoked_at) return 'revoked';
  if (token.expires_at && new Date(token.expires_at).getTime() <= now) return 'expired';
  if (!account.active) return 'accountInactive';
  return 'valid';
}

const STATE_COLOR: Record<TokenState, string> = { revoked: 'gray', expired: 'orange', accountInactive: 'gray', valid: 'teal' };

/**
 * The API tokens tab: every token with its service account, when it was made and last used; a new token
 * (for an existing account or a new one) is shown once; revoking asks first. The accounts are listed
 * under it, to rename them, change their role or switch them off.
 */
export function ApiTokensPanel() {
  const { t } = useTranslation();
  const fmt = useFormats();
  const accounts = useServiceAccounts();
  const commands = useApiTokenCommands();
  const [confirm, confirmDialog] = useConfirm();
  const [tokenFor, setTokenFor] = useState<{ accountId: string | null } | null>(null);
  const [editing, setEditing] = useState<ServiceAccount | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);

  const list = accounts.data;
  const rows: TokenRow[] | undefined = list?.flatMap((account) => account.tokens.map((token) => ({ token, account })));

  async function revoke(row: TokenRow) {
    const ok = await confirm({
      title: t('apiTokens.revokeTitle'),
      message: t('apiTokens.revokeBody', { name: row.token.name }),
      confirmLabel: t('apiTokens.revoke'),
      danger: true,
    });
    if (!ok) return;
    setRevoking(row.token.id);
    try {
      await commands.revokeToken(row.token.id);
      notifySuccess(t('apiTokens.revokedDone'));
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setRevoking(null);
    }
  }

  const newToken = (
    <Button onClick={() => setTokenFor({ accountId: null })} disabled={!list}>
      {t('apiTokens.newToken')}
    </Button>
  );

  const tokenColumns: Column<TokenRow>[] = [
    {
      key: 'name',
      header: t('apiTokens.tokenName'),
      render: ({ token, account }) => (
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {token.name}
          </Text>
          <Code style={{ width: 'fit-content' }}>{`${token.hint}…`}</Code>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {account.name}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'account',
      header: t('apiTokens.serviceAccount'),
      hideOnPhone: true,
      render: ({ account }) => (
        <Stack gap={0}>
          <Text size="sm">{account.name}</Text>
          {account.role_name ? (
            <Text size="xs" c="dimmed">
              {account.role_name}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'created',
      header: t('apiTokens.created'),
      hideOnPhone: true,
      render: ({ token }) => (
        <Stack gap={0}>
          <Text size="sm">{fmt.instant(token.created_at)}</Text>
          {token.created_by_name ? (
            <Text size="xs" c="dimmed">
              {t('apiTokens.createdBy', { name: token.created_by_name })}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'lastUsed',
      header: t('apiTokens.lastUsed'),
      hideOnPhone: true,
      render: ({ token }) => <Text size="sm">{token.last_used_at ? fmt.instant(token.last_used_at) : t('apiTokens.never')}</Text>,
    },
    {
      key: 'status',
      header: t('apiTokens.status'),
      render: ({ token, account }) => {
        const state = tokenState(token, account);
        return (
          <Stack gap={2}>
            <Badge color={STATE_COLOR[state]} variant="light" style={{ whiteSpace: 'normal', height: 'auto' }}>
              {t(`apiTokens.${state}`)}
            </Badge>
            {state === 'valid' || state === 'accountInactive' ? (
              <Text size="xs" c="dimmed">
                {t('apiTokens.expires')}: {token.expires_at ? fmt.instant(token.expires_at) : t('apiTokens.never')}
              </Text>
            ) : null}
          </Stack>
        );
      },
    },
    {
      key: 'revoke',
      header: '',
      width: 100,
      render: (row) =>
        row.token.revoked_at ? null : (
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={revoking === row.token.id}
            aria-label={t('apiTokens.revokeLabel', { name: row.token.name })}
            onClick={() => void revoke(row)}
          >
            {t('apiTokens.revoke')}
          </Button>
        ),
    },
  ];

  const accountColumns: Column<ServiceAccount>[] = [
    {
      key: 'name',
      header: t('apiTokens.name'),
      render: (a) => (
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {a.name}
          </Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {a.role_name ?? ''}
          </Text>
        </Stack>
      ),
    },
    { key: 'role', header: t('apiTokens.role'), hideOnPhone: true, render: (a) => <Text size="sm">{a.role_name ?? ''}</Text> },
    {
      key: 'tokens',
      header: t('apiTokens.tokens'),
      hideOnPhone: true,
      render: (a) => <Text size="sm">{t('apiTokens.tokenCount', { count: a.tokens.filter((k) => !k.revoked_at).length })}</Text>,
    },
    {
      key: 'active',
      header: t('apiTokens.status'),
      render: (a) => (
        <Badge color={a.active ? 'teal' : 'gray'} variant="light">
          {a.active ? t('apiTokens.active') : t('apiTokens.inactive')}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: '',
      render: (a) => (
        <Group gap="xs" wrap="wrap" justify="flex-end">
          <Button size="xs" variant="default" aria-label={t('apiTokens.editLabel', { name: a.name })} onClick={() => setEditing(a)}>
            {t('kit.edit')}
          </Button>
          <Button size="xs" variant="light" onClick={() => setTokenFor({ accountId: a.id })} disabled={!a.active}>
            {t('apiTokens.newToken')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('apiTokens.intro')}{' '}
        <Anchor href="/api/docs" target="_blank" rel="noopener" size="sm">
          {t('apiTokens.docs')}
        </Anchor>
      </Text>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2} size="h4">
          {t('apiTokens.tokens')}
        </Title>
        {rows && rows.length > 0 ? newToken : null}
      </Group>
      <DataTable
        columns={tokenColumns}
        rows={rows}
        rowKey={(r) => r.token.id}
        error={accounts.isError}
        loading={accounts.isFetching}
        emptyText={t('apiTokens.noTokens')}
        emptyAction={newToken}
        caption={t('apiTokens.tokens')}
      />
      <Group justify="space-between" wrap="wrap" gap="xs" mt="md">
        <Title order={2} size="h4">
          {t('apiTokens.serviceAccounts')}
        </Title>
        <Button variant="default" onClick={() => setEditing('new')}>
          {t('apiTokens.newAccount')}
        </Button>
      </Group>
      <DataTable
        columns={accountColumns}
        rows={list}
        rowKey={(a) => a.id}
        error={accounts.isError}
        loading={accounts.isFetching}
        emptyText={t('apiTokens.empty')}
        caption={t('apiTokens.serviceAccounts')}
      />
      {tokenFor ? (
        <TokenDialog
          accountId={tokenFor.accountId}
          accounts={list ?? []}
          onClose={() => setTokenFor(null)}
          onCreated={(value) => {
            setTokenFor(null);
            setSecret(value);
          }}
        />
      ) : null}
      {editing ? <AccountDialog account={editing} onClose={() => setEditing(null)} /> : null}
      <SecretReveal
        secret={secret}
        title={t('apiTokens.createdTitle')}
        warning={t('apiTokens.createdBody')}
        label={t('apiTokens.secretLabel')}
        hint={t('apiTokens.usage')}
        copyLabel={t('apiTokens.copy')}
        copiedLabel={t('apiTokens.copied')}
        doneLabel={t('apiTokens.done')}
        onDone={() => setSecret(null)}
      />
      {confirmDialog}
    </Stack>
  );
}
