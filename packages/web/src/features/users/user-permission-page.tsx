import { roleModuleKey, type Subject } from '@bulwark/domain';
import { Alert, Anchor, Badge, Paper, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useProfile } from '../../app/use-profile.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { useUserCommands, useUserPermissions, useUsersRefresh } from './users-api.js';

const Yes = ({ on, label }: { on: boolean; label: string }) => (
  <Badge color={on ? 'teal' : 'gray'} variant={on ? 'light' : 'outline'} aria-label={label}>
    {on ? '✓' : '—'}
  </Badge>
);

/** /users/:id/permission: the user's role matrix (read-only), and the admin switches for administrators. */
export function UserPermissionPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const commands = useUserCommands();
  const profile = useProfile();
  const refresh = useUsersRefresh();
  const permissions = useUserPermissions(id);
  const [busy, setBusy] = useState<string | null>(null);

  if (permissions.isError)
    return (
      <Alert color="red" role="alert">
        {t('errors.not_found')}
      </Alert>
    );
  if (!permissions.data) return <PageLoader />;
  const { user, role, matrix } = permissions.data;
  const isAdmin = profile?.user.is_admin ?? false;
  const yes = t('users.permission.granted');
  const no = t('users.permission.denied');

  async function setSwitch(field: 'is_admin' | 'can_issue_permit', value: boolean) {
    setBusy(field);
    try {
      await commands.update(user.id, { [field]: value });
      notifySuccess(t('users.notice.saved'));
      await refresh();
    } catch {
      // The HTTP client has shown the error (e.g. the last administrator).
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack maw={960}>
      <PageHeader
        title={t('users.permission.title', { name: user.full_name })}
        description={role ? t('users.permission.role', { role: role.name }) : t('users.permission.noRole')}
        actions={
          <Anchor component={Link} to={`/users/${user.id}/profile`} size="sm">
            {t('users.actions.profile')}
          </Anchor>
        }
      />
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="switches-title">
        <Title order={2} size="h4" id="switches-title">
          {t('users.permission.switches')}
        </Title>
        {isAdmin ? null : (
          <Text size="sm" c="dimmed">
            {t('users.permission.switchesHelp')}
          </Text>
        )}
        <Stack mt="sm" gap="sm">
          <Switch
            label={t('users.form.canIssuePermit')}
            checked={user.can_issue_permit}
            disabled={!isAdmin || busy !== null}
            onChange={(e) => void setSwitch('can_issue_permit', e.currentTarget.checked)}
          />
          <Switch
            label={t('users.form.isAdmin')}
            checked={user.is_admin}
            disabled={!isAdmin || busy !== null}
            onChange={(e) => void setSwitch('is_admin', e.currentTarget.checked)}
          />
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p={0}>
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="xs">
            <Table.Caption>{role ? t('users.permission.role', { role: role.name }) : t('users.permission.noRole')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('users.permission.module')}</Table.Th>
                <Table.Th>{t('users.permission.read')}</Table.Th>
                <Table.Th>{t('users.permission.create')}</Table.Th>
                <Table.Th>{t('users.permission.update')}</Table.Th>
                <Table.Th>{t('users.permission.delete')}</Table.Th>
                <Table.Th>{t('users.permission.workflow')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {matrix.map((m) => (
                <Table.Tr key={m.subject}>
                  <Table.Th scope="row">{t(`roles.modules.${roleModuleKey(m.subject as Subject)}`)}</Table.Th>
                  <Table.Td>
                    <Yes on={m.read} label={m.read ? yes : no} />
                  </Table.Td>
                  <Table.Td>
                    <Yes on={m.create} label={m.create ? yes : no} />
                  </Table.Td>
                  <Table.Td>
                    <Yes on={m.update} label={m.update ? yes : no} />
                  </Table.Td>
                  <Table.Td>
                    <Yes on={m.delete} label={m.delete ? yes : no} />
                  </Table.Td>
                  <Table.Td>
                    {m.workflow === null ? '' : m.workflow.length === 0 ? '—' : m.workflow.map((w) => t(`roles.rights.is_${w}`)).join(', ')}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
    </Stack>
  );
}
