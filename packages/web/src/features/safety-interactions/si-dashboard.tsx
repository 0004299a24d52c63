import type { SiDashboardResponse } from '@bulwark/domain';
import { Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../i18n/setup.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { useDashboard } from './safety-interactions-api.js';
import { formatDay, formatMonth } from './si-format.js';
import { SiNav } from './si-nav.js';
import { Stat } from './si-summary.js';
import { useSiRights } from './use-si-rights.js';
import classes from './si.module.css';

const SAFE = 'var(--mantine-color-teal-6)';
const AT_RISK = 'var(--mantine-color-orange-6)';

/** Safe and at-risk behaviours per month as paired bars (plain SVG: no chart library needed for six months). */
function TrendBars({ trend }: { trend: SiDashboardResponse['trend'] }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n);
  const most = Math.max(1, ...trend.map((m) => Math.max(m.safe, m.at_risk)));
  const w = 60;
  const h = 140;
  // Room above the tallest bar for its figure.
  const top = 16;
  return (
    <svg
      viewBox={`0 ${-top} ${trend.length * w} ${h + 34 + top}`}
      className={classes.bars}
      role="img"
      aria-label={t('safetyInteractions.dashboard.trend')}
    >
      {trend.map((m, i) => {
        const x = i * w;
        const safeH = (m.safe / most) * h;
        const riskH = (m.at_risk / most) * h;
        return (
          <g key={m.month}>
            <title>
              {t('safetyInteractions.dashboard.barLabel', { month: formatMonth(m.month, lang), safe: m.safe, atRisk: m.at_risk })}
            </title>
            <rect x={x + 10} y={h - safeH} width={18} height={safeH} fill={SAFE} rx={2} />
            <rect x={x + 32} y={h - riskH} width={18} height={riskH} fill={AT_RISK} rx={2} />
            <text x={x + 19} y={h - safeH - 3} fontSize={10} textAnchor="middle" fill="currentColor">
              {m.safe}
            </text>
            <text x={x + 41} y={h - riskH - 3} fontSize={10} textAnchor="middle" fill="currentColor">
              {m.at_risk}
            </text>
            <text x={x + w / 2} y={h + 20} fontSize={11} textAnchor="middle" fill="currentColor">
              {formatMonth(m.month, lang)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

function Legend() {
  const { t } = useTranslation();
  const dot = (color: string) => (
    <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: color, marginRight: 4 }} aria-hidden />
  );
  return (
    <Group gap="md">
      <Text size="xs">
        {dot(SAFE)}
        {t('safetyInteractions.summary.safe')}
      </Text>
      <Text size="xs">
        {dot(AT_RISK)}
        {t('safetyInteractions.summary.atRisk')}
      </Text>
    </Group>
  );
}

/** /si-dashboard: this month against the plan, the trend of behaviours, where the risk is, and what is still open. */
export function SiDashboard() {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n);
  const rights = useSiRights();
  const dash = useDashboard();
  const d = dash.data;
  return (
    <Stack gap="md">
      <SiNav />
      <PageHeader
        title={t('screen.siDashboard')}
        actions={
          rights.create ? (
            <Button component={Link} to="/safety-interactions/new">
              {t('safetyInteractions.dashboard.record')}
            </Button>
          ) : null
        }
      />
      {dash.isError ? (
        <Alert color="red" role="alert">
          {t('kit.loadFailed')}
        </Alert>
      ) : !d ? (
        <PageLoader />
      ) : (
        <>
          <Title order={2} size="h4">
            {t('safetyInteractions.dashboard.thisMonth')} · {formatMonth(d.month, lang)}
          </Title>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Stat label={t('safetyInteractions.dashboard.done')} value={d.done_this_month} />
            <Stat
              label={t('safetyInteractions.dashboard.planned')}
              value={d.planned_this_month}
              hint={t('safetyInteractions.dashboard.plannedDone', { done: d.planned_done_this_month, planned: d.planned_this_month })}
            />
            <Stat label={t('safetyInteractions.dashboard.missed')} value={d.missed_this_month} />
            <Stat
              label={t('safetyInteractions.dashboard.openActions')}
              value={d.open_actions}
              hint={t('safetyInteractions.dashboard.overdueActions', { count: d.overdue_actions })}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Paper withBorder p="md" radius="md" component="section">
              <Title order={3} size="h5" mb={4}>
                {t('safetyInteractions.dashboard.trend')}
              </Title>
              <Text size="xs" c="dimmed" mb="xs">
                {t('safetyInteractions.dashboard.trendLegend')}
              </Text>
              <TrendBars trend={d.trend} />
              <Legend />
            </Paper>
            <Paper withBorder p="md" radius="md" component="section">
              <Title order={3} size="h5" mb="xs">
                {t('safetyInteractions.dashboard.topTopics')}
              </Title>
              {d.top_at_risk_topics.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('safetyInteractions.dashboard.noAtRisk')}
                </Text>
              ) : (
                <Stack gap={6} component="ol" style={{ margin: 0, paddingLeft: 18 }}>
                  {d.top_at_risk_topics.map((x) => (
                    <li key={x.topic}>
                      <Group justify="space-between" gap="xs">
                        <Text size="sm">{t(`safetyInteractions.topics.${x.topic}`)}</Text>
                        <Badge color="orange" variant="light">
                          {x.at_risk}
                        </Badge>
                      </Group>
                    </li>
                  ))}
                </Stack>
              )}
            </Paper>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Paper withBorder p="md" radius="md" component="section">
              <Group justify="space-between" mb="xs">
                <Title order={3} size="h5">
                  {t('safetyInteractions.dashboard.openActions')}
                </Title>
                <Anchor component={Link} to="/actions/safety_interaction" size="sm">
                  {t('safetyInteractions.dashboard.viewActions')}
                </Anchor>
              </Group>
              <Text fz={28} fw={700}>
                {d.open_actions}
              </Text>
              <Text size="sm" c={d.overdue_actions > 0 ? 'red' : 'dimmed'}>
                {t('safetyInteractions.dashboard.overdueActions', { count: d.overdue_actions })}
              </Text>
            </Paper>
            <Paper withBorder p="md" radius="md" component="section">
              <Title order={3} size="h5" mb="xs">
                {t('safetyInteractions.dashboard.upcoming')}
              </Title>
              {d.upcoming.length === 0 ? (
                <Text size="sm" c="dimmed">
                  {t('safetyInteractions.dashboard.noUpcoming')}
                </Text>
              ) : (
                <Stack gap={6}>
                  {d.upcoming.map((s) => (
                    <Group key={s.id} justify="space-between" gap="xs" wrap="wrap">
                      <Text size="sm">
                        {formatDay(s.planned_date, lang)} · {s.site.name} · {s.observer?.full_name ?? '—'}
                      </Text>
                      {rights.create ? (
                        <Anchor component={Link} to={`/safety-interactions/new?schedule=${s.id}`} size="sm">
                          {t('safetyInteractions.schedule.record')}
                        </Anchor>
                      ) : null}
                    </Group>
                  ))}
                </Stack>
              )}
            </Paper>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
