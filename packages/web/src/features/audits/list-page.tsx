import { AUDIT_LIST_VIEWS, AUDIT_TABS, type AuditBySite, type AuditListItem, type AuditListView, type AuditTab } from '@bulwark/domain';
import { Anchor, Badge, Group, SegmentedControl, Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { DataTable, ExportButton, PageHeader, SearchInput, type Column } from '../../ui/index.js';
import { useAuditCounts, useAuditExport, useAuditFormData, useAuditPage, useAuditsBySite } from './audits-api.js';
import { AuditsNav } from './audits-nav.js';
import { AuditStatusBadge, PercentBadge } from './badges.js';
import { AuditFilters } from './filters.js';
import { filterQuery, isFiltered, readAuditList, writeAuditList, type AuditListState } from './list-url.js';

/**
 * /audits/{type} (spec 001 §2): the audits by audit or by site, the five tabs with their totals, the
 * filters (frequency, site, type, due-date range) and the search kept in the address, and the Excel
 * export of exactly these rows. Live: a push on the audits channel refreshes it.
 */
export function AuditListPage({ tab }: { tab: AuditTab }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const state = readAuditList(search);
  const filters = filterQuery(state);
  const formData = useAuditFormData();
  const counts = useAuditCounts(filters);
  const exports = useAuditExport();
  const go = (next: Partial<AuditListState>, nextTab: AuditTab = tab) => {
    const merged = { ...state, page: 1, ...next };
    navigate(`/audits/${nextTab}${writeAuditList(merged)}`, { replace: true });
  };
  const rangeWrong = new URLSearchParams(search).get('to') !== null && state.from !== null && state.to === null;

  return (
    <Stack gap="sm">
      <AuditsNav />
      <PageHeader
        title={t('audits.title')}
        description={t('auditsWeb.list.help')}
        actions={<ExportButton download={() => (state.view === 'site' ? exports.bySite(filters) : exports.byAudit({ ...filters, tab }))} />}
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SegmentedControl
          aria-label={t('auditsWeb.list.view')}
          value={state.view}
          onChange={(v) => go({ view: v as AuditListView })}
          data={AUDIT_LIST_VIEWS.map((v) => ({ value: v, label: t(`audits.views.${v}`) }))}
        />
        <SearchInput key={state.search} value={state.search} onChange={(v) => go({ search: v })} label={t('auditsWeb.list.search')} />
      </Group>
      <AuditFilters
        values={state}
        onChange={(c) => go(c)}
        sites={formData.data?.sites}
        range="day"
        frequency
        rangeError={rangeWrong ? t('audits.validation.dateRange') : null}
      />
      {state.view === 'audit' ? (
        <Tabs value={tab} onChange={(v) => v && go({}, v as AuditTab)} keepMounted={false}>
          <Tabs.List>
            {AUDIT_TABS.map((x) => (
              <Tabs.Tab
                key={x}
                value={x}
                rightSection={
                  <Badge size="sm" variant="light" color="gray">
                    {counts.data?.[x] ?? '…'}
                  </Badge>
                }
              >
                {t(`audits.tabs.${x}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      ) : null}
      {state.view === 'audit' ? <ByAudit tab={tab} state={state} onPage={(page) => go({ page })} /> : <BySite state={state} />}
    </Stack>
  );
}

function ByAudit({ tab, state, onPage }: { tab: AuditTab; state: AuditListState; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const f = useFormats();
  const list = useAuditPage({ ...filterQuery(state), tab, page: String(state.page) });
  const columns: Column<AuditListItem>[] = [
    {
      key: 'audit',
      header: `${t('audits.fields.serial')} · ${t('audits.fields.template')}`,
      render: (a) => (
        <Stack gap={2} align="flex-start">
          <Anchor component={Link} to={`/audits/${a.id}/summary`} fw={600} style={{ whiteSpace: 'nowrap' }}>
            {a.serial_label}
          </Anchor>
          <Text size="sm">{a.template.name}</Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {[a.site.name, f.day(a.due_date)].join(' · ')}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'site',
      header: `${t('audits.fields.site')} · ${t('audits.fields.area')}`,
      render: (a) => (
        <Stack gap={0}>
          <Text size="sm">{a.site.name}</Text>
          {a.site_node_name ? (
            <Text size="xs" c="dimmed">
              {a.site_node_name}
            </Text>
          ) : null}
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'people',
      header: `${t('audits.fields.auditor')} · ${t('audits.fields.auditee')}`,
      render: (a) => (
        <Stack gap={0}>
          <Text size="sm">{a.auditor.full_name}</Text>
          {a.auditee ? (
            <Text size="xs" c="dimmed">
              {a.auditee.full_name}
            </Text>
          ) : null}
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'due',
      header: `${t('audits.fields.dueDate')} · ${t('audits.fields.frequency')}`,
      render: (a) => (
        <Stack gap={0}>
          <Text size="sm">{a.due_date === a.window_end ? f.day(a.due_date) : `${f.day(a.due_date)} – ${f.day(a.window_end)}`}</Text>
          <Text size="xs" c="dimmed">
            {t(`audits.frequencies.${a.frequency}`)}
          </Text>
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'status',
      header: `${t('audits.fields.status')} · ${t('audits.fields.score')}`,
      render: (a) => (
        <Stack gap={4} align="flex-start">
          <AuditStatusBadge status={a.status} late={a.late} size="sm" />
          {a.status === 'scheduled' ? null : <PercentBadge percent={a.score_percent} />}
          {a.critical_failed_count > 0 ? (
            <Badge size="sm" color="red" variant="filled">
              {t('auditsWeb.list.critical', { count: a.critical_failed_count })}
            </Badge>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'findings',
      header: `${t('audits.fields.keyFindings')} · ${t('audits.fields.actions')}`,
      render: (a) => (
        <Text size="sm">
          {a.key_findings_count} · {t('audits.fields.actionsProgress', { done: a.actions_done, total: a.actions_total })}
        </Text>
      ),
      hideOnPhone: true,
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={list.data?.audits}
      rowKey={(a) => a.id}
      loading={list.isFetching}
      error={list.isError}
      emptyText={isFiltered(state) ? t('auditsWeb.list.emptyFiltered') : t(`auditsWeb.list.empty.${tab}`)}
      emptyAction={
        tab === 'scheduled' && !isFiltered(state) ? (
          <Anchor component={Link} to="/audit-schedules">
            {t('auditsWeb.list.scheduleOne')}
          </Anchor>
        ) : null
      }
      pagination={list.data?.pagination}
      onPage={onPage}
      caption={t(`audits.tabs.${tab}`)}
    />
  );
}

function BySite({ state }: { state: AuditListState }) {
  const { t } = useTranslation();
  const f = useFormats();
  const rows = useAuditsBySite(filterQuery(state));
  type Row = AuditBySite['sites'][number];
  const count = (r: Row, tab: AuditTab) => (
    <Anchor component={Link} to={`/audits/${tab}${writeAuditList({ ...state, view: 'audit', site_id: r.site.id, page: 1 })}`}>
      {r.counts[tab]}
    </Anchor>
  );
  const columns: Column<Row>[] = [
    {
      key: 'site',
      header: t('audits.fields.site'),
      render: (r) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {r.site.name}
          </Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {AUDIT_TABS.map((x) => `${t(`audits.tabs.${x}`)} ${r.counts[x]}`).join(' · ')}
          </Text>
        </Stack>
      ),
    },
    ...AUDIT_TABS.map((x) => ({ key: x, header: t(`audits.tabs.${x}`), render: (r: Row) => count(r, x), hideOnPhone: true })),
    { key: 'score', header: t('auditsWeb.list.averageScore'), render: (r) => <PercentBadge percent={r.average_score} /> },
    {
      key: 'last',
      header: t('auditsWeb.list.lastCompleted'),
      render: (r) => (r.last_completed_at ? f.instant(r.last_completed_at) : '—'),
      hideOnPhone: true,
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows.data}
      rowKey={(r) => r.site.id}
      loading={rows.isFetching}
      error={rows.isError}
      emptyText={isFiltered(state) ? t('auditsWeb.list.emptyFiltered') : t('auditsWeb.list.emptySites')}
      caption={t('audits.views.site')}
    />
  );
}
