import { can, mayManageRole, type RoleDetail, type RoleSummary } from '@bulwark/domain';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import { DataTable, PageHeader, SearchInput, useConfirm, usePagedList, type Column } from '../../ui/index.js';
import { RoleEditor } from './role-editor.js';
import { ROLES_KEY, useDeleteRole, useRoleListLoader } from './roles-api.js';

function RoleBadges({ role }: { role: Pick<RoleSummary, 'is_system' | 'is_power_user' | 'grants_admin'> }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap">
      {role.is_system ? (
        <Badge size="sm" variant="light" color="gray">
          {t('roles.badges.system')}
        </Badge>
      ) : null}
      {role.is_power_user ? (
        <Badge size="sm" variant="light" color="violet">
          {t('roles.badges.powerUser')}
        </Badge>
      ) : null}
      {role.grants_admin ? (
        <Badge size="sm" variant="light" color="orange">
          {t('roles.badges.admin')}
        </Badge>
      ) : null}
    </Group>
  );
}

/**
 * /roles (Role read): the list of roles, and the editor of one role (`?role=<id>`) or of a new one
 * (`?new=1`) in the same screen, so the browser's back button leaves the editor.
 */
export function RolesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const profile = useProfile();
  const access = profile ? principalFromProfile(profile).access : null;
  const mayCreate = access !== null && can(access, 'Role', 'create');
  const mayUpdate = access !== null && can(access, 'Role', 'update');
  const mayDelete = access !== null && can(access, 'Role', 'delete');
  // Only an administrator changes or deletes a role that grants admin access (domain access/people.ts).
  const manages = (r: RoleSummary) => mayManageRole({ isAdmin: profile?.user.is_admin ?? false }, r);
  const list = usePagedList<RoleSummary>({ queryKey: ROLES_KEY, load: useRoleListLoader() });
  const remove = useDeleteRole();
  const [confirm, dialog] = useConfirm();

  const openId = params.get('role');
  const creating = params.get('new') === '1';
  const show = (next: Record<string, string>) => setParams(next);

  const askDelete = async (role: Pick<RoleDetail, 'id' | 'name'>) => {
    const ok = await confirm({
      title: t('roles.confirm.title'),
      message: t('roles.confirm.body', { name: role.name }),
      confirmLabel: t('roles.confirm.confirm'),
      danger: true,
    });
    if (!ok) return;
    try {
      await remove.mutateAsync(role.id);
    } catch {
      return; // The HTTP client has shown why (system role, users still holding it).
    }
    notifySuccess(t('roles.form.deleted'));
    show({});
  };

  if (openId || creating) {
    return (
      <Stack maw={1200}>
        <PageHeader title={t('roles.title')} />
        <RoleEditor
          roleId={creating ? null : openId}
          onDone={(savedId) => show(savedId ? { role: savedId } : {})}
          onDelete={(role) => void askDelete(role)}
        />
        {dialog}
      </Stack>
    );
  }

  const columns: Column<RoleSummary>[] = [
    {
      key: 'name',
      header: t('roles.columns.name'),
      render: (r) => (
        <Stack gap={4}>
          <Text fw={500} size="sm">
            {r.name}
          </Text>
          <RoleBadges role={r} />
        </Stack>
      ),
    },
    { key: 'users', header: t('roles.columns.users'), width: 110, render: (r) => r.users_count },
    {
      key: 'actions',
      header: t('roles.columns.actions'),
      width: 170,
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => show({ role: r.id })}
            aria-label={t(mayUpdate && manages(r) ? 'roles.edit' : 'roles.view', { name: r.name })}
          >
            {t(mayUpdate && manages(r) ? 'roles.rights.r_edit' : 'roles.rights.r_view')}
          </Button>
          {mayDelete && !r.is_system && manages(r) ? (
            // The one destructive pattern of every list (issue 15): a red text button, then a confirmation.
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              aria-label={t('roles.delete', { name: r.name })}
              onClick={() => void askDelete(r)}
            >
              {t('kit.delete')}
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack maw={1200}>
      <PageHeader
        title={t('roles.title')}
        description={t('roles.subtitle')}
        actions={mayCreate ? <Button onClick={() => show({ new: '1' })}>{t('roles.newRole')}</Button> : null}
      />
      {/* A row, not the column itself: the search box's flex basis is meant for width. */}
      <Group>
        <SearchInput value={list.search} onChange={list.setSearch} label={t('roles.searchLabel')} />
      </Group>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={list.search ? t('roles.emptySearch') : t('roles.empty')}
        pagination={list.pagination}
        onPage={list.setPage}
        caption={t('roles.title')}
      />
      {dialog}
    </Stack>
  );
}
