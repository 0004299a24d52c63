import { userInviteBody, type UserInviteBody } from '@bulwark/domain';
import { ActionIcon, Alert, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../app/notify.js';
import { isApiError } from '../../../api/api-error.js';
import { useFormSubmit } from '../../../ui/forms/use-form-submit.js';
import { validate, type FieldErrors } from '../../../ui/forms/validation.js';
import { useOnboardingCommands, useRoles } from '../onboarding-api.js';

type Row = { key: number; full_name: string; email: string; role_id: string | null };

/**
 * Invitations, one row a person. Rows are checked with the users call's own schema first; each sent
 * row leaves the list, so a refusal (e.g. e-mail already present) stays on its row to fix.
 */
export function InviteStep({ onDone }: { onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const commands = useOnboardingCommands();
  const roles = useRoles();
  const form = useFormSubmit();
  const [rows, setRows] = useState<Row[]>([{ key: 1, full_name: '', email: '', role_id: null }]);
  const [rowErrors, setRowErrors] = useState<Record<number, FieldErrors>>({});
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r.id, label: r.name }));
  const update = (key: number, patch: Partial<Row>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const send = () => {
    const filled = rows.filter((r) => r.full_name || r.email);
    const errors: Record<number, FieldErrors> = {};
    const bodies = filled.map((r) => {
      const body: UserInviteBody = { full_name: r.full_name, email: r.email, role_id: r.role_id ?? '' };
      const checked = validate(userInviteBody, body, t);
      if (checked.errors) errors[r.key] = checked.errors;
      return { row: r, body };
    });
    setRowErrors(errors);
    if (Object.keys(errors).length > 0) return;
    void form.run(async () => {
      let sent = 0;
      for (const { row, body } of bodies) {
        try {
          await commands.invite(body);
          sent += 1;
          setRows((rs) => rs.filter((r) => r.key !== row.key));
        } catch (error) {
          if (!isApiError(error)) throw error;
          setRowErrors((e) => ({ ...e, [row.key]: Object.keys(error.fields).length ? error.fields : { email: error.message } }));
          return;
        }
      }
      if (sent > 0) notifySuccess(t('onboarding.invitesSent', { count: sent }));
      await commands.invitesDone();
      await onDone();
    });
  };

  const skip = () =>
    void form.run(async () => {
      await commands.invitesDone();
      await onDone();
    });

  return (
    <Stack>
      {rows.map((row, i) => (
        <Group key={row.key} align="flex-start" gap="xs" wrap="wrap">
          <TextInput
            label={t('onboarding.inviteName')}
            value={row.full_name}
            onChange={(e) => update(row.key, { full_name: e.currentTarget.value })}
            error={rowErrors[row.key]?.full_name}
            style={{ flex: '1 1 180px' }}
          />
          <TextInput
            label={t('onboarding.inviteEmail')}
            type="email"
            value={row.email}
            onChange={(e) => update(row.key, { email: e.currentTarget.value })}
            error={rowErrors[row.key]?.email}
            style={{ flex: '1 1 220px' }}
          />
          <Select
            label={t('onboarding.inviteRole')}
            data={roleOptions}
            value={row.role_id}
            onChange={(v) => update(row.key, { role_id: v })}
            error={rowErrors[row.key]?.role_id}
            style={{ flex: '1 1 160px' }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            mt={28}
            aria-label={`${t('onboarding.removePerson')} ${i + 1}`}
            onClick={() => setRows((rs) => (rs.length > 1 ? rs.filter((r) => r.key !== row.key) : rs))}
          >
            ×
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button
          variant="subtle"
          onClick={() =>
            setRows((rs) => [...rs, { key: Math.max(0, ...rs.map((r) => r.key)) + 1, full_name: '', email: '', role_id: null }])
          }
        >
          {t('onboarding.addPerson')}
        </Button>
      </Group>
      {form.message ? (
        <Alert color="red" role="alert">
          {form.message}
        </Alert>
      ) : null}
      <Group>
        <Button onClick={send} loading={form.busy}>
          {t('onboarding.sendInvites')}
        </Button>
        <Button variant="default" onClick={skip} disabled={form.busy}>
          {t('onboarding.skip')}
        </Button>
      </Group>
    </Stack>
  );
}
