import { USER_GENDERS, USER_SHIFTS, userInviteBody, type UserGender, type UserShift } from '@bulwark/domain';
import { Alert, Button, Checkbox, Group, Modal, MultiSelect, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useFormOptions, useUserCommands, useUsersRefresh } from './users-api.js';

/** The invitation form: the person gets an e-mail with a 7-day link to choose a password. */
export function InviteDialog({ opened, onClose, isAdmin }: { opened: boolean; onClose: () => void; isAdmin: boolean }) {
  const { t } = useTranslation();
  const commands = useUserCommands();
  const options = useFormOptions();
  const refresh = useUsersRefresh();
  const { busy, errors, message, run, refuse } = useFormSubmit();
  const [roleId, setRoleId] = useState<string | null>(null);
  const [siteIds, setSiteIds] = useState<string[]>([]);
  const [gender, setGender] = useState<UserGender | null>(null);
  const [shift, setShift] = useState<UserShift | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = {
      email: String(form.get('email') ?? ''),
      full_name: String(form.get('full_name') ?? ''),
      employee_id: String(form.get('employee_id') ?? ''),
      phone: String(form.get('phone') ?? ''),
      gender,
      shift,
      role_id: roleId ?? '',
      site_ids: siteIds,
      is_admin: form.get('is_admin') === 'on',
      can_issue_permit: form.get('can_issue_permit') === 'on',
      si_trained: form.get('si_trained') === 'on',
    };
    const checked = validate(userInviteBody, value, t);
    if (refuse(checked.errors)) return;
    await run(async () => {
      await commands.invite(value);
      notifySuccess(t('users.notice.invited', { email: checked.data!.email }));
      await refresh();
      setRoleId(null);
      setSiteIds([]);
      setGender(null);
      setShift(null);
      onClose();
    });
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('users.form.inviteTitle')} size="lg">
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('users.form.inviteHelp')}
          </Text>
          {message ? (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              name="email"
              type="email"
              label={t('users.form.email')}
              required
              error={errors.email}
              autoComplete="off"
              data-autofocus
            />
            <TextInput name="full_name" label={t('users.form.fullName')} required error={errors.full_name} />
            <TextInput name="employee_id" label={t('users.form.employeeId')} error={errors.employee_id} />
            <TextInput name="phone" type="tel" label={t('users.form.phone')} description={t('users.form.phoneHelp')} error={errors.phone} />
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
              required
              searchable
              value={roleId}
              onChange={setRoleId}
              error={errors.role_id}
              data={(options.data?.roles ?? []).map((r) => ({ value: r.id, label: r.name }))}
            />
            <MultiSelect
              label={t('users.form.sites')}
              searchable
              value={siteIds}
              onChange={setSiteIds}
              error={errors.site_ids}
              data={(options.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
            />
          </SimpleGrid>
          <Checkbox name="si_trained" label={t('users.form.siTrained')} />
          {isAdmin ? (
            <>
              <Checkbox name="can_issue_permit" label={t('users.form.canIssuePermit')} error={errors.can_issue_permit} />
              <Checkbox name="is_admin" label={t('users.form.isAdmin')} error={errors.is_admin} />
            </>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('users.form.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
