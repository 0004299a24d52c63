import {
  FILE_RULES,
  LICENCE_MODULES,
  USER_GENDERS,
  USER_SHIFTS,
  formatBytes,
  userUpdateBody,
  type LicenceModule,
  type UserGender,
  type UserRecord,
  type UserShift,
} from '@bulwark/domain';
import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Button,
  Checkbox,
  FileButton,
  Group,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useProfile } from '../../app/use-profile.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { PageHeader, useConfirm, PageLoader, useStoredFileUrl } from '../../ui/index.js';
import { useFormOptions, userControls, userRight, useUser, useUserCommands, useUsersRefresh } from './users-api.js';

/** /users/:id/profile: details, photo, sites, status and licences of one user. */
export function UserProfilePage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const user = useUser(id);

  if (user.isError)
    return (
      <Alert color="red" role="alert">
        {t('errors.not_found')}
      </Alert>
    );
  if (!user.data) return <PageLoader />;
  const u = user.data;
  return (
    <Stack maw={960}>
      <PageHeader
        title={u.full_name}
        description={u.email}
        actions={
          <>
            <Button component={Link} to={`/users/${u.id}/permission`} variant="default">
              {t('users.actions.permission')}
            </Button>
            <Anchor component={Link} to="/users" size="sm">
              {t('users.profile.back')}
            </Anchor>
          </>
        }
      />
      <Group gap="xs">
        <Badge color={u.status === 'Active' ? 'teal' : 'gray'} variant="light">
          {t(`users.status.${u.status}`)}
        </Badge>
        <Badge color={u.verified ? 'blue' : 'orange'} variant="outline">
          {t(u.verified ? 'users.verified.yes' : 'users.verified.no')}
        </Badge>
        {u.role_name ? <Badge variant="default">{u.role_name}</Badge> : null}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <PhotoCard user={u} />
        <Paper withBorder p="lg" radius="md" style={{ gridColumn: 'span 2' }} component="section" aria-labelledby="details-title">
          <Title order={2} size="h4" id="details-title" mb="sm">
            {t('users.profile.details')}
          </Title>
          <DetailsForm key={`${u.id}-${u.created_at}`} user={u} />
        </Paper>
      </SimpleGrid>
      <LicencesCard user={u} />
      <StatusCard user={u} />
    </Stack>
  );
}

function PhotoCard({ user }: { user: UserRecord }) {
  const { t } = useTranslation();
  const commands = useUserCommands();
  const profile = useProfile();
  const refresh = useUsersRefresh();
  const [busy, setBusy] = useState(false);
  const mayUpdate = userRight(profile, 'update');
  // The photo is served only with the session's headers, so <Avatar src> gets an object URL of it.
  const src = useStoredFileUrl(user.photo_url);

  async function choose(file: File | null) {
    if (!file) return;
    const rule = FILE_RULES.photo;
    if (file.size > rule.maxBytes) return notifyError(t('errors.file_too_large'));
    if (!(rule.types as readonly string[]).includes(file.type)) return notifyError(t('errors.file_type_refused'));
    setBusy(true);
    try {
      await commands.uploadPhoto(user.id, file);
      notifySuccess(t('users.notice.photoSaved'));
      await refresh();
    } catch {
      // The HTTP client has shown the error.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="photo-title">
      <Title order={2} size="h4" id="photo-title" mb="sm">
        {t('users.profile.photo')}
      </Title>
      <Stack align="center">
        <Avatar src={src} alt={user.full_name} size={120} radius={120}>
          {user.full_name.slice(0, 1)}
        </Avatar>
        {user.photo_url ? null : (
          <Text size="sm" c="dimmed">
            {t('users.profile.noPhoto')}
          </Text>
        )}
        {mayUpdate ? (
          <FileButton onChange={(f) => void choose(f)} accept="image/png,image/jpeg">
            {(props) => (
              <Button {...props} variant="default" loading={busy}>
                {t('users.profile.uploadPhoto')}
              </Button>
            )}
          </FileButton>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('users.profile.photoHelp', { max: formatBytes(FILE_RULES.photo.maxBytes) })}
        </Text>
      </Stack>
    </Paper>
  );
}

function DetailsForm({ user }: { user: UserRecord }) {
  const { t } = useTranslation();
  const commands = useUserCommands();
  const profile = useProfile();
  const options = useFormOptions();
  const refresh = useUsersRefresh();
  const { busy, errors, message, run, refuse } = useFormSubmit();
  const mayUpdate = userRight(profile, 'update');
  const controls = userControls(profile, user);
  const [roleId, setRoleId] = useState<string | null>(user.role_id);
  const [siteIds, setSiteIds] = useState<string[]>(user.site_ids);
  const [gender, setGender] = useState<UserGender | null>(user.gender);
  const [shift, setShift] = useState<UserShift | null>(user.shift);
  // A non-admin's options omit admin roles; the current one is still shown. The last active
  // administrator, an administrator by role alone, may move only to another admin role.
  const roles = (options.data?.roles ?? []).filter((r) => !(user.last_admin && !user.is_admin) || r.grants_admin);
  const roleData = roles.map((r) => ({ value: r.id, label: r.name }));
  if (user.role_id && user.role_name && !roles.some((r) => r.id === user.role_id))
    roleData.push({ value: user.role_id, label: user.role_name });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = {
      full_name: String(form.get('full_name') ?? ''),
      employee_id: String(form.get('employee_id') ?? ''),
      phone: String(form.get('phone') ?? ''),
      gender,
      shift,
      ...(roleId && roleId !== user.role_id ? { role_id: roleId } : {}),
      site_ids: siteIds,
      si_trained: form.get('si_trained') === 'on',
    };
    const checked = validate(userUpdateBody, value, t);
    if (refuse(checked.errors)) return;
    await run(async () => {
      await commands.saveDetails(user.id, value);
      notifySuccess(t('users.notice.saved'));
      await refresh();
    });
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={busy}>
      <fieldset disabled={!mayUpdate} style={{ border: 0, padding: 0, margin: 0 }}>
        <Stack>
          {message ? (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput name="full_name" label={t('users.form.fullName')} defaultValue={user.full_name} required error={errors.full_name} />
            <TextInput label={t('users.form.email')} value={user.email} readOnly />
            <TextInput
              name="employee_id"
              label={t('users.form.employeeId')}
              defaultValue={user.employee_id ?? ''}
              error={errors.employee_id}
            />
            <TextInput
              name="phone"
              type="tel"
              label={t('users.form.phone')}
              description={t('users.form.phoneHelp')}
              defaultValue={user.phone ?? ''}
              error={errors.phone}
            />
            <Select
              label={t('users.form.gender')}
              clearable
              value={gender}
              onChange={(v) => setGender(v as UserGender | null)}
              error={errors.gender}
              data={USER_GENDERS.map((g) => ({ value: g, label: t(`users.gender.${g}`) }))}
            />
            <Select
              label={t('users.form.shift')}
              clearable
              value={shift}
              onChange={(v) => setShift(v as UserShift | null)}
              error={errors.shift}
              data={USER_SHIFTS.map((s) => ({ value: s, label: t(`users.shift.${s}`) }))}
            />
            <Select
              label={t('users.form.role')}
              searchable
              value={roleId}
              onChange={setRoleId}
              error={errors.role_id}
              data={roleData}
              disabled={!controls.role}
              description={mayUpdate && !controls.role && controls.why ? t(controls.why) : undefined}
            />
            <MultiSelect
              label={t('users.form.sites')}
              searchable
              value={siteIds}
              onChange={setSiteIds}
              error={errors.site_ids}
              data={(options.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
              placeholder={siteIds.length === 0 ? t('users.profile.noSites') : undefined}
            />
          </SimpleGrid>
          <Checkbox name="si_trained" label={t('users.form.siTrained')} defaultChecked={user.si_trained} />
          {mayUpdate ? (
            <Group justify="flex-end">
              <Button type="submit" loading={busy}>
                {t('users.form.save')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </fieldset>
    </form>
  );
}

function LicencesCard({ user }: { user: UserRecord }) {
  const { t } = useTranslation();
  const commands = useUserCommands();
  const profile = useProfile();
  const refresh = useUsersRefresh();
  const isAdmin = profile?.user.is_admin ?? false;
  const [busy, setBusy] = useState<string | null>(null);

  async function toggle(module: LicenceModule, on: boolean) {
    setBusy(module);
    try {
      await commands.setLicence(user.id, module, on);
      notifySuccess(t(on ? 'users.notice.licenceAssigned' : 'users.notice.licenceRemoved'));
      await refresh();
    } catch {
      // The HTTP client has shown the error (e.g. the plan's limit).
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="licences-title">
      <Title order={2} size="h4" id="licences-title">
        {t('users.profile.licences')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('users.profile.licencesHelp')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        {LICENCE_MODULES.map((module) => {
          const held = user.licences.includes(module);
          return isAdmin ? (
            <Switch
              key={module}
              label={t(`users.module.${module}`)}
              checked={held}
              disabled={busy !== null || (user.status !== 'Active' && !held)}
              onChange={(e) => void toggle(module, e.currentTarget.checked)}
            />
          ) : (
            <Group key={module} gap="xs">
              <Text size="sm">{t(`users.module.${module}`)}</Text>
              <Badge variant="light" color={held ? 'teal' : 'gray'}>
                {t(held ? 'users.profile.hasLicence' : 'users.profile.noLicence')}
              </Badge>
            </Group>
          );
        })}
      </SimpleGrid>
    </Paper>
  );
}

function StatusCard({ user }: { user: UserRecord }) {
  const { t } = useTranslation();
  const commands = useUserCommands();
  const profile = useProfile();
  const refresh = useUsersRefresh();
  const [confirm, dialog] = useConfirm();
  const [busy, setBusy] = useState(false);
  const controls = userControls(profile, user);
  if (!userRight(profile, 'update') || profile?.user.id === user.id) return null;
  const deactivating = user.status === 'Active';
  if (!controls.status) {
    return (
      <Paper withBorder p="lg" radius="md">
        <Text>
          {t('users.columns.status')}: {t(`users.status.${user.status}`)}
        </Text>
        {controls.why ? (
          <Text size="sm" c="dimmed">
            {t(controls.why)}
          </Text>
        ) : null}
      </Paper>
    );
  }

  async function change() {
    const ok = await confirm({
      title: t(deactivating ? 'users.confirm.deactivateTitle' : 'users.confirm.activateTitle', { name: user.full_name }),
      message: t(deactivating ? 'users.confirm.deactivateBody' : 'users.confirm.activateBody', { name: user.full_name }),
      confirmLabel: t(deactivating ? 'users.actions.deactivate' : 'users.actions.activate'),
      danger: deactivating,
    });
    if (!ok) return;
    setBusy(true);
    try {
      await commands.update(user.id, { status: deactivating ? 'Inactive' : 'Active' });
      notifySuccess(t(deactivating ? 'users.notice.deactivated' : 'users.notice.activated', { name: user.full_name }));
      await refresh();
    } catch {
      // The HTTP client has shown the error.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md">
      <Group justify="space-between">
        <Text>
          {t('users.columns.status')}: {t(`users.status.${user.status}`)}
        </Text>
        <Button
          color={deactivating ? 'red' : undefined}
          variant={deactivating ? 'light' : 'filled'}
          loading={busy}
          onClick={() => void change()}
        >
          {t(deactivating ? 'users.actions.deactivate' : 'users.actions.activate')}
        </Button>
      </Group>
      {dialog}
    </Paper>
  );
}
