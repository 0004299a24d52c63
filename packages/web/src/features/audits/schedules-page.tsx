import {
  AUDIT_FREQUENCIES,
  AUDIT_TYPES,
  auditScheduleCreateBody,
  auditScheduleUpdateBody,
  type AuditFormData,
  type AuditSchedule,
  type AuditScheduleUpdateInput,
} from '@bulwark/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useFormats } from '../../ui/format.js';
import { DataTable, PageHeader, SearchInput, useConfirm, type Column } from '../../ui/index.js';
import { useAuditSchedules, useScheduleCommands, type AuditScheduleFilter } from './audit-templates-api.js';
import { useAuditFormData, useAuditRight } from './audits-api.js';
import { AuditsNav } from './audits-nav.js';
import { AuditIcon } from './badges.js';

type Filters = {
  search: string;
  site_id: string | null;
  template_id: string | null;
  type: string | null;
  frequency: string | null;
  active: string | null;
  page: number;
};
const NO_FILTERS: Filters = { search: '', site_id: null, template_id: null, type: null, frequency: null, active: null, page: 1 };

function toQuery(f: Filters): AuditScheduleFilter {
  const q: AuditScheduleFilter = { page: String(f.page) };
  for (const k of ['search', 'site_id', 'template_id', 'type', 'frequency', 'active'] as const) {
    const v = f[k];
    if (v) q[k] = v;
  }
  return q;
}

/**
 * /audit-schedules (issue 17; spec 001 §3 Audit): the schedules (template, sites, area, auditor,
 * auditee, frequency, start and end) with their next due date and the audits made so far; scheduling
 * (Audit create), changing or pausing (Audit update), deleting with the audits not started (Audit delete).
 */
export function AuditSchedulesPage() {
  const { t } = useTranslation();
  const f = useFormats();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const list = useAuditSchedules(toQuery(filters));
  const formData = useAuditFormData();
  const commands = useScheduleCommands();
  const [confirm, confirmDialog] = useConfirm();
  const [editing, setEditing] = useState<AuditSchedule | 'new' | null>(null);
  const mayCreate = useAuditRight('Audit', 'create');
  const mayEdit = useAuditRight('Audit', 'update');
  const mayDelete = useAuditRight('Audit', 'delete');
  const set = (change: Partial<Filters>) => setFilters((x) => ({ ...x, page: 1, ...change }));
  const filtered = JSON.stringify({ ...filters, page: 1 }) !== JSON.stringify(NO_FILTERS);
  const limit = list.data?.limit ?? null;
  const atLimit = limit !== null && (list.data?.pagination.total ?? 0) >= limit && !filtered;

  async function toggle(s: AuditSchedule, active: boolean) {
    if (
      !active &&
      !(await confirm({
        message: t('auditsWeb.schedules.pauseConfirm', { name: s.template.name }),
        confirmLabel: t('auditsWeb.schedules.pause'),
      }))
    )
      return;
    try {
      await commands.update(s.id, { active });
      notifySuccess(active ? t('auditsWeb.schedules.resumed') : t('auditsWeb.schedules.paused'));
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }
  async function remove(s: AuditSchedule) {
    if (
      !(await confirm({
        message: t('auditsWeb.schedules.deleteConfirm', { name: s.template.name }),
        danger: true,
        confirmLabel: t('kit.delete'),
      }))
    )
      return;
    try {
      await commands.remove(s.id);
      notifySuccess(t('kit.deleted'));
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }

  const columns: Column<AuditSchedule>[] = [
    {
      key: 'template',
      header: `${t('audits.fields.template')} · ${t('audits.fields.sites')}`,
      render: (s) => (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <AuditIcon icon={s.template.icon} size="md" />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {s.template.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {s.sites.map((x) => x.name).join(', ')}
              {s.site_node ? ` / ${s.site_node.full_name}` : ''}
            </Text>
            <Text size="xs" c="dimmed" hiddenFrom="sm">
              {t(`audits.frequencies.${s.frequency}`)} · {s.auditor.full_name}
              {s.next_due_date ? ` · ${t('auditsWeb.schedules.nextDue', { date: f.day(s.next_due_date) })}` : ''}
            </Text>
          </Stack>
        </Group>
      ),
    },
    {
      key: 'people',
      header: `${t('audits.fields.auditor')} · ${t('audits.fields.auditee')}`,
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm">{s.auditor.full_name}</Text>
          {s.auditee ? (
            <Text size="xs" c="dimmed">
              {s.auditee.full_name}
            </Text>
          ) : null}
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'when',
      header: `${t('audits.fields.frequency')} · ${t('auditsWeb.schedules.period')}`,
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm">{t(`audits.frequencies.${s.frequency}`)}</Text>
          <Text size="xs" c="dimmed">
            {s.end_date ? `${f.day(s.start_date)} – ${f.day(s.end_date)}` : t('auditsWeb.schedules.from', { date: f.day(s.start_date) })}
          </Text>
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'next',
      header: `${t('auditsWeb.schedules.next')} · ${t('auditsWeb.schedules.made')}`,
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm">{s.next_due_date ? f.day(s.next_due_date) : t('auditsWeb.schedules.ended')}</Text>
          <Text size="xs" c="dimmed">
            {t('auditsWeb.schedules.auditsMade', { count: s.audits_count })}
          </Text>
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'active',
      header: t('audits.fields.active'),
      render: (s) =>
        mayEdit ? (
          <Switch
            checked={s.active}
            onChange={(e) => void toggle(s, e.currentTarget.checked)}
            aria-label={t('auditsWeb.schedules.activeOf', { name: s.template.name })}
          />
        ) : (
          <Badge variant="light" color={s.active ? 'teal' : 'gray'} size="sm">
            {s.active ? t('kit.active') : t('kit.inactive')}
          </Badge>
        ),
      width: 80,
    },
    ...(mayEdit || mayDelete
      ? [
          {
            key: 'actions',
            header: t('kit.actions'),
            width: 64,
            render: (s: AuditSchedule) => (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <Button size="compact-sm" variant="subtle" aria-label={t('auditsWeb.schedules.menuOf', { name: s.template.name })}>
                    ⋯
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {mayEdit ? <Menu.Item onClick={() => setEditing(s)}>{t('kit.edit')}</Menu.Item> : null}
                  <Menu.Item component={Link} to={`/audits/scheduled?search=${encodeURIComponent(s.template.name)}`}>
                    {t('auditsWeb.schedules.seeAudits')}
                  </Menu.Item>
                  {mayDelete ? (
                    <Menu.Item color="red" onClick={() => void remove(s)}>
                      {t('kit.delete')}
                    </Menu.Item>
                  ) : null}
                </Menu.Dropdown>
              </Menu>
            ),
          },
        ]
      : []),
  ];

  return (
    <Stack gap="sm">
      <AuditsNav />
      <PageHeader
        title={t('audits.schedulesTitle')}
        description={t('auditsWeb.schedules.help')}
        actions={
          mayCreate ? (
            <Button onClick={() => setEditing('new')} disabled={atLimit || !formData.data}>
              {t('auditsWeb.schedules.new')}
            </Button>
          ) : null
        }
      />
      {atLimit && mayCreate ? (
        <Alert color="yellow" role="status">
          {t('audits.limits.schedules', { limit })}
        </Alert>
      ) : null}
      <Group gap="xs" align="flex-end" wrap="wrap">
        <SearchInput value={filters.search} onChange={(v) => set({ search: v })} label={t('auditsWeb.schedules.search')} />
        <Select
          label={t('audits.fields.site')}
          placeholder={t('auditsWeb.filters.allSites')}
          clearable
          searchable
          data={(formData.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={filters.site_id}
          onChange={(x) => set({ site_id: x })}
          w={{ base: '100%', xs: 200 }}
          nothingFoundMessage={t('kit.noResults')}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('audits.fields.template')}
          placeholder={t('auditsWeb.filters.allTemplates')}
          clearable
          searchable
          data={(formData.data?.templates ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={filters.template_id}
          onChange={(x) => set({ template_id: x })}
          w={{ base: '100%', xs: 200 }}
          nothingFoundMessage={t('kit.noResults')}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('audits.fields.type')}
          placeholder={t('auditsWeb.filters.allTypes')}
          clearable
          data={AUDIT_TYPES.map((x) => ({ value: x, label: t(`audits.types.${x}`) }))}
          value={filters.type}
          onChange={(x) => set({ type: x })}
          w={{ base: 'calc(50% - 4px)', xs: 150 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('audits.fields.frequency')}
          placeholder={t('auditsWeb.filters.any')}
          clearable
          data={AUDIT_FREQUENCIES.map((x) => ({ value: x, label: t(`audits.frequencies.${x}`) }))}
          value={filters.frequency}
          onChange={(x) => set({ frequency: x })}
          w={{ base: 'calc(50% - 4px)', xs: 150 }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('audits.fields.active')}
          placeholder={t('kit.all')}
          clearable
          data={[
            { value: 'true', label: t('kit.active') },
            { value: 'false', label: t('auditsWeb.schedules.pausedState') },
          ]}
          value={filters.active}
          onChange={(x) => set({ active: x })}
          w={{ base: '100%', xs: 140 }}
          comboboxProps={{ withinPortal: true }}
        />
        {filtered ? (
          <Button variant="subtle" onClick={() => setFilters(NO_FILTERS)}>
            {t('auditsWeb.filters.clear')}
          </Button>
        ) : null}
      </Group>
      <DataTable
        columns={columns}
        rows={list.data?.schedules}
        rowKey={(s) => s.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={filtered ? t('auditsWeb.list.emptyFiltered') : t('auditsWeb.schedules.empty')}
        emptyAction={
          !filtered && mayCreate && formData.data ? (
            <Button variant="light" onClick={() => setEditing('new')}>
              {t('auditsWeb.schedules.new')}
            </Button>
          ) : null
        }
        pagination={list.data?.pagination}
        onPage={(page) => setFilters((x) => ({ ...x, page }))}
        caption={t('audits.schedulesTitle')}
      />
      {editing && formData.data ? (
        <ScheduleDialog schedule={editing === 'new' ? null : editing} formData={formData.data} onClose={() => setEditing(null)} />
      ) : null}
      {confirmDialog}
    </Stack>
  );
}

type Draft = {
  template_id: string | null;
  site_ids: string[];
  site_node_id: string | null;
  auditor_id: string | null;
  auditee_id: string | null;
  frequency: string | null;
  start_date: string;
  end_date: string;
};

function draftOf(s: AuditSchedule | null): Draft {
  if (!s)
    return {
      template_id: null,
      site_ids: [],
      site_node_id: null,
      auditor_id: null,
      auditee_id: null,
      frequency: null,
      start_date: '',
      end_date: '',
    };
  return {
    template_id: s.template.id,
    site_ids: s.sites.map((x) => x.id),
    site_node_id: s.site_node?.id ?? null,
    auditor_id: s.auditor.id,
    auditee_id: s.auditee?.id ?? null,
    frequency: s.frequency,
    start_date: s.start_date,
    end_date: s.end_date ?? '',
  };
}

/** Schedule audits, or change a schedule: once it has made audits, only auditor, auditee, area and end change. */
function ScheduleDialog({ schedule, formData, onClose }: { schedule: AuditSchedule | null; formData: AuditFormData; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useScheduleCommands();
  const form = useFormSubmit();
  const [v, setV] = useState<Draft>(() => draftOf(schedule));
  const set = (change: Partial<Draft>) => setV((x) => ({ ...x, ...change }));
  const fixed = schedule !== null && schedule.audits_count > 0;
  const site = v.site_ids.length === 1 ? formData.sites.find((s) => s.id === v.site_ids[0]) : undefined;
  const templates = formData.templates.filter((x) => x.active || x.id === v.template_id);
  const body = {
    template_id: v.template_id ?? '',
    site_ids: v.site_ids,
    site_node_id: v.site_node_id,
    auditor_id: v.auditor_id ?? '',
    auditee_id: v.auditee_id,
    frequency: v.frequency ?? '',
    start_date: v.start_date,
    end_date: v.end_date || null,
  };

  async function save() {
    if (schedule) {
      const change: AuditScheduleUpdateInput = fixed
        ? { auditor_id: body.auditor_id, auditee_id: body.auditee_id, site_node_id: body.site_node_id, end_date: body.end_date }
        : (body as AuditScheduleUpdateInput);
      if (form.refuse(validate(auditScheduleUpdateBody, change, t).errors)) return;
      await form.run(async () => {
        await commands.update(schedule.id, change);
        notifySuccess(t('kit.saved'));
        onClose();
      });
      return;
    }
    const checked = validate(auditScheduleCreateBody, body, t);
    if (form.refuse(checked.errors) || !checked.data) return;
    const data = checked.data;
    await form.run(async () => {
      await commands.create(data);
      notifySuccess(t('auditsWeb.schedules.created'));
      onClose();
    });
  }

  const e = form.errors;
  const people = (list: { id: string; full_name: string; email: string }[]) =>
    list.map((u) => ({ value: u.id, label: `${u.full_name} (${u.email})` }));
  return (
    <Modal opened onClose={onClose} title={schedule ? t('auditsWeb.schedules.edit') : t('auditsWeb.schedules.new')} size="lg">
      <Stack gap="sm" component="form" onSubmit={(ev) => (ev.preventDefault(), void save())}>
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        {fixed ? (
          <Text size="sm" c="dimmed">
            {t('auditsWeb.schedules.fixedHelp', { count: schedule.audits_count })}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('auditsWeb.schedules.formHelp')}
          </Text>
        )}
        {templates.length === 0 ? (
          <Alert color="yellow">
            {t('auditsWeb.schedules.noTemplates')}{' '}
            <Anchor component={Link} to="/audit-forms" size="sm">
              {t('auditsWeb.templates.new')}
            </Anchor>
          </Alert>
        ) : null}
        <Select
          label={t('audits.fields.template')}
          withAsterisk
          searchable
          data={templates.map((x) => ({ value: x.id, label: x.name }))}
          value={v.template_id}
          onChange={(x) => set({ template_id: x })}
          disabled={fixed}
          error={e['template_id']}
          nothingFoundMessage={t('kit.noResults')}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        <MultiSelect
          label={t('audits.fields.sites')}
          withAsterisk
          searchable
          data={formData.sites.map((s) => ({ value: s.id, label: s.name }))}
          value={v.site_ids}
          onChange={(ids) => set({ site_ids: ids, site_node_id: ids.length === 1 && ids[0] === v.site_ids[0] ? v.site_node_id : null })}
          disabled={fixed}
          error={e['site_ids']}
          nothingFoundMessage={t('kit.noResults')}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('audits.fields.area')}
          description={v.site_ids.length === 1 ? undefined : t('auditsWeb.schedules.areaHelp')}
          clearable
          searchable
          data={(site?.nodes ?? []).map((n) => ({ value: n.id, label: n.full_name }))}
          value={v.site_node_id}
          onChange={(x) => set({ site_node_id: x })}
          disabled={!site || site.nodes.length === 0}
          error={e['site_node_id']}
          nothingFoundMessage={t('kit.noResults')}
          comboboxProps={{ withinPortal: true }}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('audits.fields.auditor')}
            withAsterisk
            searchable
            data={people(formData.auditors)}
            value={v.auditor_id}
            onChange={(x) => set({ auditor_id: x })}
            error={e['auditor_id']}
            nothingFoundMessage={t('kit.noResults')}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('audits.fields.auditee')}
            clearable
            searchable
            data={people(formData.users)}
            value={v.auditee_id}
            onChange={(x) => set({ auditee_id: x })}
            error={e['auditee_id']}
            nothingFoundMessage={t('kit.noResults')}
            comboboxProps={{ withinPortal: true }}
          />
        </SimpleGrid>
        <Select
          label={t('audits.fields.frequency')}
          withAsterisk
          data={formData.frequencies.map((x) => ({ value: x, label: t(`audits.frequencies.${x}`) }))}
          value={v.frequency}
          onChange={(x) => set({ frequency: x })}
          disabled={fixed}
          error={e['frequency']}
          comboboxProps={{ withinPortal: true }}
        />
        <SimpleGrid cols={2} spacing="sm">
          <TextInput
            type="date"
            label={t('audits.fields.startDate')}
            withAsterisk
            value={v.start_date}
            onChange={(ev) => set({ start_date: ev.currentTarget.value })}
            disabled={fixed}
            error={e['start_date']}
          />
          <TextInput
            type="date"
            label={t('audits.fields.endDate')}
            value={v.end_date}
            onChange={(ev) => set({ end_date: ev.currentTarget.value })}
            error={e['end_date']}
          />
        </SimpleGrid>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {schedule ? t('common.save') : t('auditsWeb.schedules.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
