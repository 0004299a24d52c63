import {
  extendApproveBody,
  extendRejectBody,
  TRIAL_EXTENSION_DEFAULT_DAYS,
  TRIAL_EXTENSION_MAX_DAYS,
  type ExtendRequestStatus,
  type PlatformExtendRequest,
} from '@bulwark/domain';
import { Alert, Badge, Button, Group, Modal, NumberInput, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { DataTable, PageHeader, type Column } from '../../ui/index.js';
import { EXTEND_REQUESTS_KEY, useExtendRequests, useExtensionCommands } from './registration-api.js';

type Filter = ExtendRequestStatus | 'all';
type Decision = { kind: 'approve' | 'reject'; request: PlatformExtendRequest };
const STATUS_COLOR = { pending: 'yellow', approved: 'teal', rejected: 'red' } as const;

/** /extend_requests: every organisation's free-trial extension requests (platform admin). */
export function ExtendRequestsPage() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<Filter>('pending');
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const queryClient = useQueryClient();
  const { data, isError, isFetching } = useExtendRequests(status === 'all' ? null : status);
  const day = (iso: string | null) => (iso ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso)) : '—');

  const columns: Column<PlatformExtendRequest>[] = [
    {
      key: 'organization',
      header: t('registration.extendRequests.organization'),
      render: (r) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {r.organization.name}
          </Text>
          <Text size="xs" c="dimmed">
            {r.organization.sub_domain_name}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'reason',
      header: t('registration.extendRequests.reason'),
      render: (r) => (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {r.reason}
        </Text>
      ),
    },
    { key: 'by', header: t('registration.extendRequests.requestedBy'), hideOnPhone: true, render: (r) => r.requested_by?.email ?? '—' },
    { key: 'on', header: t('registration.extendRequests.requestedOn'), hideOnPhone: true, render: (r) => day(r.created_at) },
    { key: 'ends', header: t('registration.extendRequests.trialEnds'), render: (r) => day(r.organization.trial_ends_at) },
    {
      key: 'status',
      header: t('registration.extendRequests.status'),
      render: (r) => (
        <Stack gap={2}>
          <Badge color={STATUS_COLOR[r.status]} variant="light">
            {t(`registration.extendRequests.statuses.${r.status}`)}
          </Badge>
          {r.days_granted && <Text size="xs">{t('registration.extendRequests.daysGranted', { count: r.days_granted })}</Text>}
          {r.decision_reason && (
            <Text size="xs" c="dimmed">
              {r.decision_reason}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'actions',
      header: t('registration.extendRequests.actions'),
      render: (r) =>
        r.status === 'pending' ? (
          <Group gap={4} wrap="nowrap">
            <Button size="compact-sm" onClick={() => setDeciding({ kind: 'approve', request: r })}>
              {t('registration.extendRequests.approve')}
            </Button>
            <Button size="compact-sm" variant="default" color="red" onClick={() => setDeciding({ kind: 'reject', request: r })}>
              {t('registration.extendRequests.reject')}
            </Button>
          </Group>
        ) : null,
    },
  ];

  return (
    <>
      <PageHeader title={t('registration.extendRequests.title')} />
      <SegmentedControl
        mb="md"
        value={status}
        onChange={(value) => setStatus(value as Filter)}
        aria-label={t('registration.extendRequests.filter')}
        data={[
          { value: 'pending', label: t('registration.extendRequests.statuses.pending') },
          { value: 'approved', label: t('registration.extendRequests.statuses.approved') },
          { value: 'rejected', label: t('registration.extendRequests.statuses.rejected') },
          { value: 'all', label: t('registration.extendRequests.all') },
        ]}
      />
      <DataTable
        columns={columns}
        rows={data}
        rowKey={(r) => r.id}
        loading={isFetching}
        error={isError}
        emptyText={t('registration.extendRequests.empty')}
      />
      {deciding && (
        <DecisionDialog
          decision={deciding}
          onClose={() => setDeciding(null)}
          onDone={() => {
            setDeciding(null);
            void queryClient.invalidateQueries({ queryKey: EXTEND_REQUESTS_KEY });
          }}
        />
      )}
    </>
  );
}

function DecisionDialog({ decision, onClose, onDone }: { decision: Decision; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const extension = useExtensionCommands();
  const form = useFormSubmit();
  const [days, setDays] = useState<number | string>(TRIAL_EXTENSION_DEFAULT_DAYS);
  const organization = decision.request.organization.name;
  const approving = decision.kind === 'approve';

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (approving) {
      if (form.refuse(validate(extendApproveBody, { days }, t).errors)) return;
      await form.run(async () => {
        await extension.approve(decision.request.id, Number(days));
        notifySuccess(t('registration.extendRequests.approved'));
        onDone();
      });
    } else {
      const reason = String(new FormData(event.currentTarget).get('reason') ?? '');
      if (form.refuse(validate(extendRejectBody, { reason }, t).errors)) return;
      await form.run(async () => {
        await extension.reject(decision.request.id, reason);
        notifySuccess(t('registration.extendRequests.rejected'));
        onDone();
      });
    }
  }

  return (
    <Modal
      opened
      onClose={onClose}
      centered
      title={t(approving ? 'registration.extendRequests.approveTitle' : 'registration.extendRequests.rejectTitle', { organization })}
    >
      <form onSubmit={submit} noValidate aria-busy={form.busy}>
        <Stack>
          {form.message && (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          )}
          <Text size="sm" c="dimmed">
            {decision.request.reason}
          </Text>
          {approving ? (
            <NumberInput
              label={t('registration.extendRequests.days')}
              value={days}
              onChange={setDays}
              min={1}
              max={TRIAL_EXTENSION_MAX_DAYS}
              allowDecimal={false}
              required
              data-autofocus
              error={form.errors['days']}
            />
          ) : (
            <Textarea
              name="reason"
              label={t('registration.extendRequests.rejectReason')}
              autosize
              minRows={2}
              maxLength={1000}
              required
              data-autofocus
              error={form.errors['reason']}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color={approving ? undefined : 'red'} loading={form.busy}>
              {t(approving ? 'registration.extendRequests.approve' : 'registration.extendRequests.reject')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
