import { AUDIT_TABS, type AuditSummary } from '@bulwark/domain';
import { Alert, Anchor, Button, Group, Loader, Paper, Progress, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../ui/index.js';
import { useAuditFormData, useAuditRight, useAuditSummaryInfo } from './audits-api.js';
import { AuditsNav } from './audits-nav.js';
import { PercentBadge } from './badges.js';
import { AuditFilters, type FilterValues } from './filters.js';
import { FailedList } from './failed-list.js';
import { points } from './run-model.js';

const KEYS = ['site_id', 'type', 'frequency', 'template_id', 'from', 'to'] as const;
type Values = FilterValues & { template_id: string | null };

/** The filters as the address holds them (so a summary can be shared), strings only. */
export function summaryFilters(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of KEYS) {
    const v = params.get(k);
    if (v) out[k] = v;
  }
  return out;
}

/**
 * /audit-summary (spec 001 §2): across the audits the filters pick (site, type, frequency, template,
 * due dates): how many each status holds, on time against late, the average score, key findings and
 * their actions, by template and by site, and the questions failed most often.
 */
export function AuditSummaryPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const query = summaryFilters(params);
  const values: Values = {
    site_id: query['site_id'] ?? null,
    type: query['type'] ?? null,
    frequency: query['frequency'] ?? null,
    template_id: query['template_id'] ?? null,
    from: query['from'] ?? null,
    to: query['to'] ?? null,
  };
  const rangeWrong = Boolean(values.from && values.to && values.from > values.to);
  const formData = useAuditFormData();
  const summary = useAuditSummaryInfo(rangeWrong ? { ...query, to: undefined } : query);
  const mayCreate = useAuditRight('Audit', 'create');
  const filtered = Object.keys(query).length > 0;

  const change = (c: Partial<Values>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(c)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };

  const s = summary.data;
  return (
    <Stack gap="sm">
      <AuditsNav />
      <PageHeader title={t('audits.summaryTitle')} description={t('auditsWeb.summary.help')} />
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          label={t('audits.fields.template')}
          placeholder={t('auditsWeb.filters.allTemplates')}
          clearable
          searchable
          data={(formData.data?.templates ?? []).map((x) => ({ value: x.id, label: x.name }))}
          value={values.template_id}
          onChange={(x) => change({ template_id: x })}
          w={{ base: '100%', xs: 220 }}
          nothingFoundMessage={t('kit.noResults')}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <AuditFilters
        values={values}
        onChange={change}
        sites={formData.data?.sites}
        range="day"
        frequency
        rangeError={rangeWrong ? t('audits.validation.dateRange') : null}
      />
      {summary.isError ? (
        <Alert color="red" role="alert">
          {t('errors.somethingWentWrong')}
        </Alert>
      ) : !s ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('common.loading')} />
        </Group>
      ) : s.counts.total === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="xs" align="flex-start">
            <Text>{filtered ? t('auditsWeb.list.emptyFiltered') : t('auditsWeb.summary.empty')}</Text>
            {filtered ? (
              <Button variant="light" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
                {t('auditsWeb.filters.clear')}
              </Button>
            ) : mayCreate ? (
              <Button component={Link} to="/audit-schedules">
                {t('auditsWeb.list.scheduleOne')}
              </Button>
            ) : null}
          </Stack>
        </Paper>
      ) : (
        <SummaryBody s={s} query={query} loading={summary.isFetching} />
      )}
    </Stack>
  );
}

function Tile({ label, value, to, color }: { label: string; value: ReactNode; to?: string; color?: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {to ? (
        <Anchor component={Link} to={to} fz="xl" fw={700} c={color}>
          {value}
        </Anchor>
      ) : (
        <Text fz="xl" fw={700} c={color}>
          {value}
        </Text>
      )}
    </Paper>
  );
}

function SummaryBody({ s, query, loading }: { s: AuditSummary; query: Record<string, string>; loading: boolean }) {
  const { t } = useTranslation();
  const listQuery = new URLSearchParams(Object.entries(query).filter(([k]) => k !== 'template_id')).toString();
  const listTo = (tab: string) => `/audits/${tab}${listQuery ? `?${listQuery}` : ''}`;
  const decided = s.on_time + s.late;
  return (
    <Stack gap="sm" aria-busy={loading}>
      <SimpleGrid cols={{ base: 2, xs: 3, md: 6 }} spacing="xs">
        {AUDIT_TABS.map((x) => (
          <Tile
            key={x}
            label={t(`audits.tabs.${x}`)}
            value={s.counts[x]}
            to={listTo(x)}
            color={x === 'overdue' && s.counts.overdue > 0 ? 'orange.8' : undefined}
          />
        ))}
        <Tile label={t('audits.statuses.rejected')} value={s.counts.rejected} to={listTo('in_progress')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="summary-score">
          <Title order={2} size="h5" id="summary-score" mb={4}>
            {t('auditsWeb.list.averageScore')}
          </Title>
          <PercentBadge percent={s.average_score} />
          {s.average_score !== null ? <Progress value={s.average_score} mt="xs" aria-label={t('auditsWeb.list.averageScore')} /> : null}
        </Paper>
        <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="summary-ontime">
          <Title order={2} size="h5" id="summary-ontime" mb={4}>
            {t('auditsWeb.summary.onTime')}
          </Title>
          <Text size="sm">{t('auditsWeb.summary.onTimeLine', { onTime: s.on_time, late: s.late })}</Text>
          {decided > 0 ? (
            // The line above says the numbers; the bar only draws them (a div takes no label).
            <Progress.Root mt="xs" aria-hidden>
              <Progress.Section value={(s.on_time / decided) * 100} color="teal" />
              <Progress.Section value={(s.late / decided) * 100} color="orange" />
            </Progress.Root>
          ) : null}
        </Paper>
        <Paper withBorder radius="md" p="sm" component="section" aria-labelledby="summary-actions">
          <Title order={2} size="h5" id="summary-actions" mb={4}>
            {t('auditsWeb.summary.findingsActions')}
          </Title>
          <Text size="sm">{t('auditsWeb.summary.findingsLine', { count: s.key_findings })}</Text>
          <Text size="sm">
            {t('auditsWeb.summary.actionsLine', {
              total: s.actions.total,
              open: s.actions.open,
              overdue: s.actions.overdue,
              done: s.actions.done,
            })}
          </Text>
          <Anchor component={Link} to="/actions/audits" size="sm">
            {t('auditsWeb.summary.openActions')}
          </Anchor>
        </Paper>
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        <GroupTable
          title={t('auditsWeb.summary.byTemplate')}
          id="summary-templates"
          head={t('audits.fields.template')}
          rows={s.by_template.map((r) => ({
            key: r.template.id,
            name: r.template.name,
            audits: r.audits,
            completed: r.completed,
            score: r.average_score,
          }))}
        />
        <GroupTable
          title={t('auditsWeb.summary.bySite')}
          id="summary-sites"
          head={t('audits.fields.site')}
          rows={s.by_site.map((r) => ({
            key: r.site.id,
            name: r.site.name,
            audits: r.audits,
            completed: r.completed,
            score: r.average_score,
          }))}
        />
      </SimpleGrid>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="summary-failed">
        <Title order={2} size="h4" id="summary-failed" mb="xs">
          {t('auditsWeb.summary.mostFailed')}
        </Title>
        <FailedList questions={s.most_failed} />
      </Paper>
    </Stack>
  );
}

type GroupRow = { key: string; name: string; audits: number; completed: number; score: number | null };

function GroupTable({ title, id, head, rows }: { title: string; id: string; head: string; rows: GroupRow[] }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('audits.report.none')}
        </Text>
      ) : (
        <Table striped verticalSpacing={4} fz="sm" layout="fixed" aria-labelledby={id}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{head}</Table.Th>
              <Table.Th w={{ base: 70, sm: 90 }}>{t('auditsWeb.summary.audits')}</Table.Th>
              <Table.Th w={{ base: 80, sm: 100 }}>{t('audits.statuses.completed')}</Table.Th>
              <Table.Th w={{ base: 70, sm: 90 }}>{t('audits.fields.score')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.name}</Table.Td>
                <Table.Td>{r.audits}</Table.Td>
                <Table.Td>{r.completed}</Table.Td>
                <Table.Td>{r.score === null ? '—' : `${points(r.score)} %`}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
