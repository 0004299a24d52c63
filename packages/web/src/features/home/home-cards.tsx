import { OBSERVATION_RISK_LEVELS, type HomeResponse } from '@bulwark/domain';
import { Anchor, Badge, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { STATUS_COLORS } from '../actions/format.js';
import { StatusBadge } from '../observations/status-badge.js';

/** A titled card of the home; `id` names it for screen readers and the tests. */
export function HomeCard({ id, title, children, footer }: { id: string; title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={id} h="100%">
      <Stack gap="sm" h="100%">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
        {footer ? <div style={{ marginTop: 'auto' }}>{footer}</div> : null}
      </Stack>
    </Paper>
  );
}

const listStyle = { listStyle: 'none', padding: 0, margin: 0 } as const;

export function MyActions({ data, mayStart, allPath }: { data: HomeResponse['my_actions']; mayStart: boolean; allPath: string | null }) {
  const { t } = useTranslation();
  const f = useFormats();
  return (
    <HomeCard
      id="home-actions"
      title={t('home.actions.heading')}
      footer={
        allPath ? (
          <Anchor component={Link} to={allPath} size="sm">
            {t('home.actions.all')}
          </Anchor>
        ) : null
      }
    >
      <Text size="sm" c="dimmed">
        {t('home.actions.counts', { open: data.open, inProgress: data.in_progress, overdue: data.overdue })}
      </Text>
      {data.items.length === 0 ? (
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('home.actions.empty')}</Text>
          {mayStart ? (
            <Button component={Link} to="/actions/new" variant="light" size="xs">
              {t('home.start.action')}
            </Button>
          ) : null}
        </Stack>
      ) : (
        <Stack component="ul" gap="xs" style={listStyle}>
          {data.items.map((a) => (
            <li key={a.id}>
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                <Stack gap={0} miw={0}>
                  <Anchor component={Link} to={a.path} size="sm" fw={500} lineClamp={2}>
                    #{a.serial} · {a.description}
                  </Anchor>
                  <Text size="xs" c={a.status === 'overdue' ? 'red.8' : 'dimmed'}>
                    {t('home.actions.due', { date: f.day(a.due_date) })} · {a.site_name}
                  </Text>
                </Stack>
                <Badge color={STATUS_COLORS[a.status]} variant="light">
                  {t(`actions.status.${a.status}`)}
                </Badge>
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </HomeCard>
  );
}

export function MyReports({ data, mayReport }: { data: HomeResponse['my_reports']; mayReport: boolean }) {
  const { t } = useTranslation();
  const f = useFormats();
  return (
    <HomeCard
      id="home-reports"
      title={t('home.reports.heading')}
      footer={
        <Anchor component={Link} to="/observations" size="sm">
          {t('home.reports.all')}
        </Anchor>
      }
    >
      {data.length === 0 ? (
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{t('home.reports.empty')}</Text>
          {mayReport ? (
            <Button component={Link} to="/observations/new" variant="light" size="xs">
              {t('home.start.observation')}
            </Button>
          ) : null}
        </Stack>
      ) : (
        <Stack component="ul" gap="xs" style={listStyle}>
          {data.map((r) => (
            <li key={r.id}>
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                <Stack gap={0} miw={0}>
                  <Anchor component={Link} to={r.path} size="sm" fw={500} lineClamp={2}>
                    {r.serial_label} · {r.description}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {f.instant(r.reported_at)} · {r.site_name}
                  </Text>
                </Stack>
                <StatusBadge status={r.status} />
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </HomeCard>
  );
}

export function MyReviews({ data }: { data: HomeResponse['my_reviews'] }) {
  const { t } = useTranslation();
  const f = useFormats();
  return (
    <HomeCard id="home-reviews" title={t('home.reviews.heading')}>
      {data.length === 0 ? (
        <Text size="sm">{t('home.reviews.empty')}</Text>
      ) : (
        <Stack component="ul" gap="xs" style={listStyle}>
          {data.map((r) => (
            <li key={`${r.module}-${r.record_id}`}>
              <Anchor component={Link} to={r.path} size="sm" fw={500}>
                {r.label}
              </Anchor>
              <Text size="xs" c="dimmed">
                {t('home.reviews.since', { date: f.instant(r.asked_at) })}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </HomeCard>
  );
}

const RISK_COLOR = { low: 'green', medium: 'yellow', high: 'orange', critical: 'red' } as const;

export function OpenByRisk({ data }: { data: NonNullable<HomeResponse['open_observations_by_risk']> }) {
  const { t } = useTranslation();
  const f = useFormats();
  return (
    <HomeCard
      id="home-risk"
      title={t('home.risk.heading')}
      footer={
        <Anchor component={Link} to="/observations" size="sm">
          {t('home.risk.open')}
        </Anchor>
      }
    >
      <Text size="sm" c="dimmed">
        {t('home.risk.caption', { month: f.month(data.month) })}
      </Text>
      {data.total === 0 ? (
        <Text size="sm">{t('home.risk.empty')}</Text>
      ) : (
        <Stack gap={6}>
          <Text fw={700}>{t('home.risk.total', { count: data.total })}</Text>
          {OBSERVATION_RISK_LEVELS.slice()
            .reverse()
            .map((level) => (
              <Group key={level} gap="xs" wrap="nowrap">
                <Text size="sm" w={96} style={{ flexShrink: 0 }}>
                  {t(`observations.riskLevels.${level}`)}
                </Text>
                <Progress
                  value={(100 * data.by_risk[level]) / data.total}
                  color={RISK_COLOR[level]}
                  style={{ flex: 1 }}
                  aria-label={`${t(`observations.riskLevels.${level}`)}: ${data.by_risk[level]}`}
                />
                <Text size="sm" fw={700} w={32} ta="right">
                  {data.by_risk[level]}
                </Text>
              </Group>
            ))}
        </Stack>
      )}
    </HomeCard>
  );
}
