import type { AuditTrends } from '@bulwark/domain';
import { Alert, Anchor, Box, Group, Loader, Paper, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { PageHeader } from '../../ui/index.js';
import { useAuditFormData, useAuditRight, useAuditTrends, type AuditTrendsFilter } from './audits-api.js';
import { AuditsNav } from './audits-nav.js';
import { FailedList } from './failed-list.js';
import { AuditFilters } from './filters.js';
import { MONTH, monthsBetween } from './months.js';
import { points } from './run-model.js';

const COLORS = ['blue', 'teal', 'orange', 'grape', 'red', 'cyan', 'lime', 'pink', 'indigo', 'yellow'];
const color = (i: number) => `var(--mantine-color-${COLORS[i % COLORS.length]}-6)`;

type Template = AuditTrends['templates'][number];

/**
 * /audit-trends (issue 17): per template, the average score of each site month by month (a line per
 * site, and the same figures as a table), and the questions failed most often; filtered by template,
 * site and a range of months (the last twelve by default).
 */
export function AuditTrendsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const month = (k: string) => {
    const v = params.get(k);
    return v && MONTH.test(v) ? v : null;
  };
  const values = {
    site_id: params.get('site_id'),
    type: null,
    template_id: params.get('template_id'),
    from: month('from'),
    to: month('to'),
  };
  const rangeWrong = Boolean(values.from && values.to && values.from > values.to);
  const query: AuditTrendsFilter = {};
  if (values.template_id) query.template_id = values.template_id;
  if (values.site_id) query.site_id = values.site_id;
  if (values.from) query.from = values.from;
  if (values.to && !rangeWrong) query.to = values.to;
  const formData = useAuditFormData();
  const trends = useAuditTrends(query);
  const mayCreate = useAuditRight('Audit', 'create');
  const set = (change: Record<string, string | null | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const data = trends.data;
  const withData = (data?.templates ?? []).filter((x) => x.series.some((s) => s.points.length > 0) || x.most_failed.length > 0);

  return (
    <Stack gap="sm">
      <AuditsNav />
      <PageHeader title={t('audits.trendsTitle')} description={t('auditsWeb.trends.help')} />
      <Group gap="xs" align="flex-end" wrap="wrap">
        <Select
          label={t('audits.fields.template')}
          placeholder={t('auditsWeb.filters.allTemplates')}
          clearable
          searchable
          data={(formData.data?.templates ?? []).map((x) => ({ value: x.id, label: x.name }))}
          value={values.template_id}
          onChange={(x) => set({ template_id: x })}
          w={{ base: '100%', xs: 220 }}
          nothingFoundMessage={t('kit.noResults')}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <AuditFilters
        values={values}
        onChange={(c) => set(c)}
        types={false}
        sites={formData.data?.sites}
        range="month"
        rangeError={rangeWrong ? t('audits.validation.dateRange') : null}
      />
      {trends.isError ? (
        <Alert color="red" role="alert">
          {t('errors.somethingWentWrong')}
        </Alert>
      ) : !data ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('common.loading')} />
        </Group>
      ) : withData.length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('auditsWeb.trends.empty')}</Text>
            {mayCreate ? (
              <Anchor component={Link} to="/audit-schedules" size="sm">
                {t('auditsWeb.list.scheduleOne')}
              </Anchor>
            ) : null}
          </Stack>
        </Paper>
      ) : (
        <Stack gap="md" aria-busy={trends.isFetching}>
          {withData.map((x) => (
            <TemplateTrend key={x.template.id} template={x} months={monthsBetween(data.from, data.to)} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function TemplateTrend({ template: x, months }: { template: Template; months: string[] }) {
  const { t } = useTranslation();
  const f = useFormats();
  const id = `trend-${x.template.id}`;
  const series = x.series.filter((s) => s.points.length > 0);
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id}>
        {x.template.name}
      </Title>
      <Text size="xs" c="dimmed" mb="xs">
        {t(`audits.types.${x.template.type}`)} · {f.month(months[0] ?? '')} – {f.month(months[months.length - 1] ?? '')}
      </Text>
      {series.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('auditsWeb.trends.noScores')}
        </Text>
      ) : (
        <>
          <LineChart series={series} months={months} label={t('auditsWeb.trends.chartOf', { name: x.template.name })} />
          <Group gap="sm" wrap="wrap" mt={4} mb="xs" aria-hidden>
            {series.map((s, i) => (
              <Group key={s.site.id} gap={4} wrap="nowrap">
                <Box w={12} h={4} style={{ background: color(i), borderRadius: 2 }} />
                <Text size="xs">{s.site.name}</Text>
              </Group>
            ))}
          </Group>
          <Table.ScrollContainer minWidth={Math.max(320, 120 + months.length * 64)}>
            <Table verticalSpacing={2} fz="xs" striped aria-label={t('auditsWeb.trends.tableOf', { name: x.template.name })}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('audits.fields.site')}</Table.Th>
                  {months.map((m) => (
                    <Table.Th key={m} style={{ whiteSpace: 'nowrap' }}>
                      {m}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {series.map((s) => {
                  const at = new Map(s.points.map((p) => [p.month, p]));
                  return (
                    <Table.Tr key={s.site.id}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{s.site.name}</Table.Td>
                      {months.map((m) => {
                        const p = at.get(m);
                        return (
                          <Table.Td key={m} title={p ? t('auditsWeb.trends.auditsN', { count: p.audits }) : undefined}>
                            {p ? `${points(p.average_score)} %` : '—'}
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      <Title order={3} size="h5" mt="md" mb="xs">
        {t('auditsWeb.summary.mostFailed')}
      </Title>
      <FailedList questions={x.most_failed} />
    </Paper>
  );
}

/** Score (0–100 %) per month, a line per site; the table under it carries the same figures for screen readers. */
function LineChart({ series, months, label }: { series: Template['series']; months: string[]; label: string }) {
  const W = 640;
  const H = 200;
  const pad = { l: 34, r: 10, t: 10, b: 22 };
  const x = (i: number) => pad.l + (months.length <= 1 ? (W - pad.l - pad.r) / 2 : (i * (W - pad.l - pad.r)) / (months.length - 1));
  const y = (v: number) => pad.t + ((100 - v) * (H - pad.t - pad.b)) / 100;
  const step = Math.max(1, Math.ceil(months.length / 6));
  return (
    <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-label={label} style={{ display: 'block', maxHeight: 260 }}>
      {[0, 25, 50, 75, 100].map((v) => (
        <g key={v}>
          <line x1={pad.l} x2={W - pad.r} y1={y(v)} y2={y(v)} stroke="var(--mantine-color-gray-3)" strokeWidth={1} />
          <text x={pad.l - 6} y={y(v) + 4} textAnchor="end" fontSize={11} fill="var(--mantine-color-dimmed)">
            {v}
          </text>
        </g>
      ))}
      {months.map((m, i) =>
        i % step === 0 || i === months.length - 1 ? (
          <text key={m} x={x(i)} y={H - 6} textAnchor="middle" fontSize={11} fill="var(--mantine-color-dimmed)">
            {m.slice(2)}
          </text>
        ) : null,
      )}
      {series.map((s, si) => {
        const pts = s.points
          .map((p) => ({ i: months.indexOf(p.month), v: p.average_score }))
          .filter((p) => p.i >= 0)
          .sort((a, b) => a.i - b.i);
        return (
          <g key={s.site.id}>
            <polyline points={pts.map((p) => `${x(p.i)},${y(p.v)}`).join(' ')} fill="none" stroke={color(si)} strokeWidth={2} />
            {pts.map((p) => (
              <circle key={p.i} cx={x(p.i)} cy={y(p.v)} r={3.5} fill={color(si)} />
            ))}
          </g>
        );
      })}
    </svg>
  );
}
