import { can, completeRoleMatrix, mayManageRole, roleCreateBody, type RoleDetail, type RoleMatrixRow } from '@bulwark/domain';
import { Alert, Badge, Button, Checkbox, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../ui/index.js';
import { notifySuccess } from '../../app/notify.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { RoleMatrix } from './role-matrix.js';
import { useRole, useSaveRole } from './roles-api.js';

type Props = {
  /** null: a new role. */
  roleId: string | null;
  onDone: (savedId: string | null) => void;
  onDelete: (role: RoleDetail) => void;
};

/** Loads the role (or starts an empty one) and shows its form; read-only without the right to change it. */
export function RoleEditor({ roleId, onDone, onDelete }: Props) {
  const { t } = useTranslation();
  const role = useRole(roleId);
  if (roleId === null) return <RoleForm role={null} onDone={onDone} onDelete={onDelete} />;
  if (role.isError) {
    return (
      <Alert color="red" role="alert" title={t('roles.loadFailed')}>
        <Button variant="default" mt="sm" onClick={() => onDone(null)}>
          {t('common.back')}
        </Button>
      </Alert>
    );
  }
  if (!role.data) {
    return <PageLoader />;
  }
  // A new version of the role (saved here, or elsewhere and pushed) starts the form afresh.
  return <RoleForm key={`${role.data.id}:${role.data.updated_at}`} role={role.data} onDone={onDone} onDelete={onDelete} />;
}

function RoleForm({ role, onDone, onDelete }: { role: RoleDetail | null } & Omit<Props, 'roleId'>) {
  const { t } = useTranslation();
  const profile = useProfile();
  const access = profile ? principalFromProfile(profile).access : null;
  // Only an administrator grants admin access, or changes or deletes a role that grants it (domain access/people.ts).
  const isAdmin = profile?.user.is_admin ?? false;
  const manages = role === null || mayManageRole({ isAdmin }, role);
  const mayWrite = access !== null && manages && can(access, 'Role', role ? 'update' : 'create');
  const mayDelete = access !== null && role !== null && manages && !role.is_system && can(access, 'Role', 'delete');
  const save = useSaveRole();
  const form = useFormSubmit();

  const [name, setName] = useState(role?.name ?? '');
  const [isPowerUser, setPowerUser] = useState(role?.is_power_user ?? false);
  const [grantsAdmin, setGrantsAdmin] = useState(role?.grants_admin ?? false);
  const [rows, setRows] = useState<RoleMatrixRow[]>(() => completeRoleMatrix(role?.role_actions_attributes ?? []));

  const title = role ? t(mayWrite ? 'roles.form.editTitle' : 'roles.form.viewTitle', { name: role.name }) : t('roles.form.createTitle');

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const input = {
      name,
      is_power_user: isPowerUser,
      grants_admin: grantsAdmin,
      role_actions_attributes: rows.map((r) => ({ ...r })),
    };
    const checked = validate(roleCreateBody, input, t);
    if (form.refuse(checked.errors) || !checked.data) return;
    const body = checked.data;
    void form.run(async () => {
      const saved = await save.mutateAsync({ id: role?.id ?? null, body });
      notifySuccess(t(role ? 'roles.form.saved' : 'roles.form.created'));
      onDone(saved.id);
    });
  };

  const matrixError = Object.entries(form.errors).find(([field]) => field.startsWith('role_actions_attributes'))?.[1];

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="role-form-title">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h3" id="role-form-title" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          <Group gap={6}>
            {role?.is_system ? (
              <Badge variant="light" color="gray">
                {t('roles.badges.system')}
              </Badge>
            ) : null}
            {role ? (
              <Text size="sm" c="dimmed">
                {t('roles.usersCount', { count: role.users_count })}
              </Text>
            ) : null}
          </Group>
        </Group>
        {!mayWrite ? <Alert color="blue">{t(manages ? 'roles.form.readOnly' : 'roles.errors.adminRole')}</Alert> : null}
        {role?.is_system && mayWrite ? <Alert color="gray">{t('roles.form.systemNote')}</Alert> : null}
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <Paper withBorder p="md" radius="md">
          <Stack gap="sm">
            <TextInput
              label={t('roles.form.name')}
              description={t('roles.form.nameHelp')}
              required
              maxLength={60}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={form.errors['name']}
              readOnly={!mayWrite || role?.is_system}
              data-autofocus
            />
            <Checkbox
              label={t('roles.form.powerUser')}
              description={t('roles.form.powerUserHelp')}
              checked={isPowerUser}
              disabled={!mayWrite}
              onChange={(e) => setPowerUser(e.currentTarget.checked)}
              error={form.errors['is_power_user']}
            />
            <Checkbox
              label={t('roles.form.grantsAdmin')}
              description={t('roles.form.grantsAdminHelp')}
              checked={grantsAdmin}
              disabled={!mayWrite || !isAdmin}
              onChange={(e) => setGrantsAdmin(e.currentTarget.checked)}
              error={form.errors['grants_admin']}
            />
          </Stack>
        </Paper>
        <Stack gap={4}>
          <Title order={3} size="h4">
            {t('roles.form.matrixTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('roles.form.matrixHelp')}
          </Text>
        </Stack>
        {matrixError ? (
          <Alert color="red" role="alert">
            {matrixError}
          </Alert>
        ) : null}
        <RoleMatrix rows={rows} onChange={mayWrite ? setRows : undefined} readOnly={!mayWrite} />
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            {mayWrite ? (
              <Button type="submit" loading={form.busy}>
                {t(role ? 'roles.form.save' : 'roles.form.create')}
              </Button>
            ) : null}
            <Button variant="default" onClick={() => onDone(null)}>
              {t('common.back')}
            </Button>
          </Group>
          {mayDelete ? (
            <Button color="red" variant="light" onClick={() => onDelete(role)}>
              {t('roles.delete', { name: role.name })}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
