import { extendRequestBody } from '@bulwark/domain';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useProfile } from '../../app/use-profile.js';
import { formatInstant } from '../../ui/format.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { PLAN_KEY, useExtensionCommands, usePlan } from './registration-api.js';

/** Days before the end from which the banner shows (the reminders start then too). */
const SHOW_FROM_DAYS = 3;

/**
 * Above every signed-in screen of a trial organisation: the trial is ending or has ended; admins may
 * request an extension from here.
 */
export function TrialBanner() {
  const { t, i18n } = useTranslation();
  const profile = useProfile();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  // A guest neither reads the plan nor can act on it (the server refuses it the plan).
  const trial = profile?.organization?.subscription_type === 'free_trial' && !profile.user.is_platform_admin && !profile.user.is_guest;
  const { data: plan } = usePlan(trial);

  if (!trial || !plan || plan.status !== 'trial' || plan.trial_days_left === null || plan.trial_days_left > SHOW_FROM_DAYS) return null;
  const isAdmin = profile.user.is_admin;
  const date = plan.trial_ends_at ? formatInstant(plan.trial_ends_at, i18n.language) : '';
  const text = plan.trial_expired
    ? t(isAdmin ? 'registration.banner.expired' : 'registration.banner.expiredUser')
    : plan.trial_days_left === 0
      ? t('registration.banner.endsToday')
      : t('registration.banner.endsIn', { count: plan.trial_days_left, date });

  return (
    <Alert color={plan.trial_expired ? 'red' : 'yellow'} mb="md" role="status" data-testid="trial-banner">
      <Group justify="space-between" gap="xs">
        <Text size="sm">{text}</Text>
        {isAdmin &&
          (plan.extension_request_pending ? (
            <Text size="sm" fw={500}>
              {t('registration.banner.pending')}
            </Text>
          ) : (
            <Button size="compact-sm" variant="white" onClick={() => setAsking(true)}>
              {t('registration.banner.request')}
            </Button>
          ))}
      </Group>
      {asking && profile.organization && (
        <ExtensionDialog
          organizationId={profile.organization.id}
          onClose={() => setAsking(false)}
          onSent={() => {
            setAsking(false);
            void queryClient.invalidateQueries({ queryKey: PLAN_KEY });
          }}
        />
      )}
    </Alert>
  );
}

function ExtensionDialog({ organizationId, onClose, onSent }: { organizationId: string; onClose: () => void; onSent: () => void }) {
  const { t } = useTranslation();
  const extension = useExtensionCommands();
  const form = useFormSubmit();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
    if (form.refuse(validate(extendRequestBody, { reason }, t).errors)) return;
    await form.run(async () => {
      await extension.request(organizationId, reason);
      notifySuccess(t('registration.extendDialog.sent'));
      onSent();
    });
  }

  return (
    <Modal opened onClose={onClose} title={t('registration.extendDialog.title')} centered>
      <form onSubmit={submit} noValidate aria-busy={form.busy}>
        <Stack>
          {form.message && (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          )}
          <Textarea
            name="reason"
            label={t('registration.extendDialog.reason')}
            autosize
            minRows={3}
            maxLength={1000}
            required
            data-autofocus
            error={form.errors['reason']}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.busy}>
              {t('registration.extendDialog.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
