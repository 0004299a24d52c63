import type { UserRecord } from '@bulwark/domain';
import { Anchor, Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useProfile } from '../../app/use-profile.js';
import { GuestAccess } from './guest-access.js';
import { DataTable, ExportButton, PageHeader, SearchInput, usePagedList, type Column } from '../../ui/index.js';
import { ImportDialog } from './import-dialog.js';
import { InviteDialog } from './invite-dialog.js';
import {
  USERS_KEY,
  useFormOptions,
  useLicenceCounts,
  userRight,
  useUserCommands,
  useUsersExport,
  useUsersLoader,
  useUsersRefresh,
} from './users-api.js';

/** /users: every user of the organisation with search, filters, pages, invite, import and export. */
export function UsersPage() {
  return <UserList pendingOnly={false} />;
}

/** /newusers: the people invited who have not activated their account yet. */
export function NewUsersPage() {
  return <UserList pendingOnly />;
}

function UserList({ pendingOnly }: { pendingOnly: boolean }) {
  const { t } = useTranslation();
  const profile = useProfile();
  const mayCreate = userRight(profile, 'create');
  const options = useFormOptions();
  const [status, setStatus] = useState<string | null>(null);
  const [role, setRole] = useState<string | null>(null);
  const [site, setSite] = useState<string | null>(null);
  const [verified, setVerified] = useState<string | null>(pendingOnly ? 'false' : null);
  const [inviting, setInviting] = useState(false);
  const [importing, setImporting] = useState(false);
  const load = useUsersLoader();
  const list = usePagedList<UserRecord>({
    queryKey: [...USERS_KEY, 'list'],
    load,
    filters: { status, role, site, verified: pendingOnly ? 'false' : verified },
  });
  const exportList = useUsersExport(list.exportQuery);
  const siteNames = new Map((options.data?.sites ?? []).map((s) => [s.id, s.name]));

  const columns: Column<UserRecord>[] = [
    {
      key: 'name',
      header: t('users.columns.name'),
      render: (u) => (
        <Anchor component={Link} to={`/users/${u.id}/profile`}>
          {u.full_name}
        </Anchor>
      ),
    },
    { key: 'email', header: t('users.columns.email'), render: (u) => u.email },
    { key: 'employee', header: t('users.columns.employeeId'), render: (u) => u.employee_id ?? '—', hideOnPhone: true },
    { key: 'role', header: t('users.columns.role'), render: (u) => u.role_name ?? '—', hideOnPhone: true },
    {
      key: 'sites',
      header: t('users.columns.sites'),
      hideOnPhone: true,
      render: (u) => (u.site_ids.length === 0 ? '—' : u.site_ids.map((id) => siteNames.get(id) ?? '…').join(', ')),
    },
    {
      key: 'status',
      header: t('users.columns.status'),
      render: (u) => (
        <Group gap={4} wrap="wrap">
          <Badge color={u.status === 'Active' ? 'teal' : 'gray'} variant="light">
            {t(`users.status.${u.status}`)}
          </Badge>
          <Badge color={u.verified ? 'blue' : 'orange'} variant="outline">
            {t(u.verified ? 'users.verified.yes' : 'users.verified.no')}
          </Badge>
        </Group>
      ),
    },
    {
      key: 'actions',
      header: t('users.columns.actions'),
      render: (u) => (!u.verified && u.status === 'Active' && mayCreate ? <ResendButton user={u} /> : null),
    },
  ];

  const statusOptions = [
    { value: 'Active', label: t('users.status.Active') },
    { value: 'Inactive', label: t('users.status.Inactive') },
  ];

  return (
    <Stack>
      <PageHeader
        title={t(pendingOnly ? 'users.newUsersTitle' : 'users.title')}
        description={pendingOnly ? t('users.newUsersHelp') : undefined}
        actions={
          <>
            {mayCreate ? <Button onClick={() => setInviting(true)}>{t('users.invite')}</Button> : null}
            {mayCreate && !pendingOnly ? (
              <Button variant="default" onClick={() => setImporting(true)}>
                {t('users.import')}
              </Button>
            ) : null}
            <ExportButton download={exportList} />
          </>
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SearchInput value={list.search} onChange={list.setSearch} label={t('users.search')} />
        <Select
          label={t('users.filters.status')}
          placeholder={t('users.filters.all')}
          data={statusOptions}
          value={status}
          onChange={(v) => {
            setStatus(v);
            list.setPage(1);
          }}
          clearable
          w={150}
        />
        <Select
          label={t('users.filters.role')}
          placeholder={t('users.filters.all')}
          clearable
          w={180}
          searchable
          data={(options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))}
          value={role}
          onChange={(v) => {
            setRole(v);
            list.setPage(1);
          }}
        />
        <Select
          label={t('users.filters.site')}
          placeholder={t('users.filters.all')}
          clearable
          w={180}
          searchable
          data={(options.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={site}
          onChange={(v) => {
            setSite(v);
            list.setPage(1);
          }}
        />
        {pendingOnly ? null : (
          <Select
            label={t('users.filters.verified')}
            placeholder={t('users.filters.all')}
            clearable
            w={160}
            data={[
              { value: 'true', label: t('users.verified.yes') },
              { value: 'false', label: t('users.verified.no') },
            ]}
            value={verified}
            onChange={(v) => {
              setVerified(v);
              list.setPage(1);
            }}
          />
        )}
      </Group>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(u) => u.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={t(pendingOnly ? 'users.emptyNew' : 'users.empty')}
        pagination={list.pagination}
        onPage={list.setPage}
        caption={t(pendingOnly ? 'users.newUsersTitle' : 'users.title')}
      />
      {!pendingOnly && profile?.user.is_admin ? <LicenceSummary /> : null}
      {!pendingOnly && profile?.user.is_admin ? <GuestAccess /> : null}
      <InviteDialog opened={inviting} onClose={() => setInviting(false)} isAdmin={profile?.user.is_admin ?? false} />
      <ImportDialog opened={importing} onClose={() => setImporting(false)} />
    </Stack>
  );
}

function ResendButton({ user }: { user: UserRecord }) {
  const { t } = useTranslation();
  const commands = useUserCommands();
  const refresh = useUsersRefresh();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="xs"
      variant="light"
      loading={busy}
      aria-label={`${t('users.actions.resend')}: ${user.full_name}`}
      onClick={async () => {
        setBusy(true);
        try {
          await commands.resendActivation(user.id);
          notifySuccess(t('users.notice.resent', { email: user.email }));
          await refresh();
        } catch {
          // The HTTP client has shown the error.
        } finally {
          setBusy(false);
        }
      }}
    >
      {t('users.actions.resend')}
    </Button>
  );
}

/** Licences used and unassigned per module (administrators only). */
function LicenceSummary() {
  const { t } = useTranslation();
  const counts = useLicenceCounts(true);
  if (!counts.data) return null;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="licence-summary">
      <Title order={2} size="h5" id="licence-summary" mb="xs">
        {t('users.licences.title')}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 4, md: 7 }} spacing="xs">
        {counts.data.modules.map((m) => (
          <Stack key={m.module} gap={0}>
            <Text size="sm" fw={600}>
              {t(`users.module.${m.module}`)}
            </Text>
            <Text size="xs" c="dimmed">
              {t('users.licences.used')}: {m.used} · {t('users.licences.unassigned')}: {m.unassigned}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
