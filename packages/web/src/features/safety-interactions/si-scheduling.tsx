import { SI_SCHEDULE_STATUSES, siScheduleSchema, siSerial, type SiScheduleResponse } from '@bulwark/domain';
import { Alert, Anchor, Badge, Button, Group, Modal, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { currentLanguage } from '../../i18n/setup.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { DataTable, PageHeader, useConfirm, type Column } from '../../ui/index.js';
import { PeoplePicker } from './people-picker.js';
import { useSchedules, useSiCommands, useSiOptions } from './safety-interactions-api.js';
import { formatDay, formatMonth, localDay } from './si-format.js';
import { SiNav } from './si-nav.js';
import { useSiRights } from './use-si-rights.js';

const STATUS_COLORS = { planned: 'blue', done: 'teal', missed: 'red' } as const;

type Draft = {
  id: string | null;
  observer: { id: string; full_name: string } | null;
  site_id: string | null;
  planned_date: string;
  note: string;
};

function monthShift(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m - 1 + by, 1)).toISOString().slice(0, 7);
}
const lastDay = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

function PlanDialog({ draft, onClose }: { draft: Draft; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useSiCommands();
  const options = useSiOptions();
  const form = useFormSubmit();
  const [d, setD] = useState(draft);
  const body = { observer_id: d.observer?.id ?? '', site_id: d.site_id ?? '', planned_date: d.planned_date, note: d.note };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (form.refuse(validate(siScheduleSchema, body, t).errors)) return;
    await form.run(async () => {
      if (d.id) await commands.updateSchedule(d.id, body);
      else await commands.createSchedule(body);
      notifySuccess(t(d.id ? 'safetyInteractions.schedule.saved' : 'safetyInteractions.schedule.created'));
      await commands.refresh();
      onClose();
    });
  }

  return (
    <Modal opened onClose={onClose} title={t(d.id ? 'safetyInteractions.schedule.edit' : 'safetyInteractions.schedule.add')} centered>
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="sm">
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <PeoplePicker
            label={t('safetyInteractions.fields.observer')}
            required
            value={d.observer?.id ?? null}
            current={d.observer}
            onChange={(_, p) => setD({ ...d, observer: p })}
            error={form.errors['observer_id']}
          />
          <Select
            label={t('safetyInteractions.fields.site')}
            withAsterisk
            searchable
            data={(options.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
            value={d.site_id}
            onChange={(v) => setD({ ...d, site_id: v })}
            error={form.errors['site_id']}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            type="date"
            label={t('safetyInteractions.fields.plannedDate')}
            withAsterisk
            min={localDay(0)}
            value={d.planned_date}
            onChange={(e) => setD({ ...d, planned_date: e.currentTarget.value })}
            error={form.errors['planned_date']}
          />
          <Textarea
            label={t('safetyInteractions.fields.note2')}
            autosize
            minRows={2}
            maxLength={500}
            value={d.note}
            onChange={(e) => setD({ ...d, note: e.currentTarget.value })}
            error={form.errors['note']}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('safetyInteractions.form.cancel')}
            </Button>
            <Button type="submit" loading={form.busy}>
              {t('safetyInteractions.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** /safety-interactions/scheduling: the plans of a month with their status (planned, done, missed), planned and changed here. */
export function SiScheduling() {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n);
  const commands = useSiCommands();
  const rights = useSiRights();
  const [month, setMonth] = useState(localDay(0).slice(0, 7));
  const [status, setStatus] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [confirm, dialog] = useConfirm();
  const plans = useSchedules({ from: `${month}-01`, to: lastDay(month), status });

  async function remove(s: SiScheduleResponse) {
    const ok = await confirm({
      title: t('safetyInteractions.schedule.confirmDeleteTitle'),
      message: t('safetyInteractions.schedule.confirmDeleteBody'),
      confirmLabel: t('safetyInteractions.list.delete'),
      danger: true,
    });
    if (!ok) return;
    try {
      await commands.removeSchedule(s.id);
      notifySuccess(t('safetyInteractions.schedule.deleted'));
      await commands.refresh();
    } catch {
      // The HTTP client has shown the refusal.
    }
  }

  const columns: Column<SiScheduleResponse>[] = [
    { key: 'date', header: t('safetyInteractions.fields.plannedDate'), render: (s) => formatDay(s.planned_date, lang) },
    { key: 'observer', header: t('safetyInteractions.fields.observer'), render: (s) => s.observer?.full_name ?? '—' },
    { key: 'site', header: t('safetyInteractions.fields.site'), render: (s) => s.site.name, hideOnPhone: true },
    { key: 'note', header: t('safetyInteractions.fields.note2'), render: (s) => s.note ?? '—', hideOnPhone: true },
    {
      key: 'status',
      header: t('safetyInteractions.fields.status'),
      render: (s) => (
        <Badge color={STATUS_COLORS[s.status]} variant="light">
          {t(`safetyInteractions.scheduleStatuses.${s.status}`)}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: t('safetyInteractions.list.moreActions'),
      render: (s) => (
        <Group gap={6} wrap="wrap">
          {s.interaction ? (
            <Anchor component={Link} to={`/safety-interactions/${s.interaction.id}/report`} size="sm">
              {t('safetyInteractions.schedule.recorded', { serial: siSerial(s.interaction.serial) })}
            </Anchor>
          ) : rights.create ? (
            <Button
              component={Link}
              to={`/safety-interactions/new?schedule=${s.id}`}
              size="compact-sm"
              variant="light"
              aria-label={`${t('safetyInteractions.schedule.record')}: ${formatDay(s.planned_date, lang)}`}
            >
              {t('safetyInteractions.schedule.record')}
            </Button>
          ) : null}
          {rights.update ? (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() =>
                setDraft({ id: s.id, observer: s.observer, site_id: s.site.id, planned_date: s.planned_date, note: s.note ?? '' })
              }
              aria-label={`${t('safetyInteractions.list.edit')}: ${formatDay(s.planned_date, lang)}`}
            >
              {t('safetyInteractions.list.edit')}
            </Button>
          ) : null}
          {rights.remove ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={() => void remove(s)}
              aria-label={`${t('safetyInteractions.list.delete')}: ${formatDay(s.planned_date, lang)}`}
            >
              {t('safetyInteractions.list.delete')}
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <SiNav />
      <PageHeader
        title={t('safetyInteractions.schedule.title')}
        actions={
          rights.create ? (
            <Button onClick={() => setDraft({ id: null, observer: null, site_id: null, planned_date: localDay(1), note: '' })}>
              {t('safetyInteractions.schedule.add')}
            </Button>
          ) : null
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <Group gap={4} wrap="nowrap">
          <Button
            variant="default"
            onClick={() => setMonth(monthShift(month, -1))}
            aria-label={t('safetyInteractions.schedule.previousMonth')}
          >
            ‹
          </Button>
          <TextInput
            type="month"
            aria-label={t('safetyInteractions.schedule.month')}
            value={month}
            onChange={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)}
            w={170}
          />
          <Button variant="default" onClick={() => setMonth(monthShift(month, 1))} aria-label={t('safetyInteractions.schedule.nextMonth')}>
            ›
          </Button>
        </Group>
        <Select
          aria-label={t('safetyInteractions.fields.status')}
          placeholder={t('safetyInteractions.schedule.allStatuses')}
          clearable
          data={SI_SCHEDULE_STATUSES.map((x) => ({ value: x, label: t(`safetyInteractions.scheduleStatuses.${x}`) }))}
          value={status}
          onChange={setStatus}
          w={{ base: '100%', xs: 180 }}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={plans.data?.schedules}
        rowKey={(s) => s.id}
        loading={plans.isFetching}
        error={plans.isError}
        emptyText={t('safetyInteractions.schedule.empty')}
        caption={`${t('safetyInteractions.schedule.title')} ${formatMonth(month, lang)}`}
      />
      {draft ? <PlanDialog key={draft.id ?? 'new'} draft={draft} onClose={() => setDraft(null)} /> : null}
      {dialog}
    </Stack>
  );
}
