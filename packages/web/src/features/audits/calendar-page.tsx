import type { AuditCalendar } from '@bulwark/domain';
import { ActionIcon, Alert, Anchor, Badge, Box, Group, Loader, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { PageHeader } from '../../ui/index.js';
import { useAuditCalendar, useAuditFormData, useAuditRight } from './audits-api.js';
import { AuditsNav } from './audits-nav.js';
import { AuditFilters } from './filters.js';
import { MONTH, monthGrid, shiftMonth, thisMonth, today as todayOf } from './months.js';

/**
 * /audit-calendar (issue 17): a month of audits scheduled (made, and still to be made by the active
 * schedules) against completed, and those now overdue, day by day; filtered by site and audit type. A
 * day opens the audits due that day. On a phone the grid keeps its seven columns and the days with
 * audits are listed under it.
 */
export function AuditCalendarPage() {
  const { t, i18n } = useTranslation();
  const f = useFormats();
  const [params, setParams] = useSearchParams();
  const rawMonth = params.get('month');
  const month = rawMonth && MONTH.test(rawMonth) ? rawMonth : thisMonth();
  const siteId = params.get('site_id');
  const type = params.get('type');
  const formData = useAuditFormData();
  const mayCreate = useAuditRight('Audit', 'create');
  const calendar = useAuditCalendar({ month, ...(siteId ? { site_id: siteId } : {}), ...(type ? { type } : {}) });

  const set = (change: Record<string, string | null | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(change)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setParams(next, { replace: true });
  };
  const weekdays = Array.from({ length: 7 }, (_, i) =>
    new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 1 + i))),
  );
  const data = calendar.data;
  const byDay = new Map((data?.days ?? []).map((d) => [d.date, d]));
  const dayLink = (date: string) => {
    const q = new URLSearchParams({ from: date, to: date, ...(siteId ? { site_id: siteId } : {}), ...(type ? { type } : {}) });
    return `/audits/scheduled?${q.toString()}`;
  };
  const busy = (data?.days ?? []).filter((d) => d.scheduled + d.completed + d.overdue > 0);
  const empty = data !== undefined && data.totals.scheduled + data.totals.completed + data.totals.overdue === 0;

  return (
    <Stack gap="sm">
      <AuditsNav />
      <PageHeader title={t('audits.calendarTitle')} description={t('auditsWeb.calendar.help')} />
      <AuditFilters values={{ site_id: siteId, type }} onChange={(c) => set(c)} sites={formData.data?.sites} />
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('auditsWeb.calendar.previous')}
          onClick={() => set({ month: shiftMonth(month, -1) })}
        >
          ‹
        </ActionIcon>
        <Text fw={600} fz="lg" ta="center" style={{ flex: 1 }} aria-live="polite">
          {f.month(month)}
        </Text>
        <TextInput
          type="month"
          aria-label={t('auditsWeb.calendar.month')}
          value={month}
          onChange={(e) => MONTH.test(e.currentTarget.value) && set({ month: e.currentTarget.value })}
          w={150}
          visibleFrom="xs"
        />
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('auditsWeb.calendar.next')}
          onClick={() => set({ month: shiftMonth(month, 1) })}
        >
          ›
        </ActionIcon>
      </Group>
      <Legend totals={data?.totals} />
      {calendar.isError ? (
        <Alert color="red" role="alert">
          {t('errors.somethingWentWrong')}
        </Alert>
      ) : !data ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('common.loading')} />
        </Group>
      ) : (
        <>
          <Box role="grid" aria-label={f.month(month)} aria-busy={calendar.isFetching}>
            <SimpleGrid cols={7} spacing={2} role="row">
              {weekdays.map((w) => (
                <Text key={w} role="columnheader" size="xs" c="dimmed" ta="center" fw={600}>
                  {w}
                </Text>
              ))}
            </SimpleGrid>
            {monthGrid(month).map((week, wi) => (
              <SimpleGrid key={wi} cols={7} spacing={2} mt={2} role="row">
                {week.map((date, di) =>
                  date ? (
                    <DayCell key={date} date={date} day={byDay.get(date)} to={dayLink(date)} />
                  ) : (
                    <Box key={`pad-${wi}-${di}`} role="gridcell" />
                  ),
                )}
              </SimpleGrid>
            ))}
          </Box>
          {empty ? (
            <Paper withBorder radius="md" p="md">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{t('auditsWeb.calendar.empty')}</Text>
                {mayCreate ? (
                  <Anchor component={Link} to="/audit-schedules" size="sm">
                    {t('auditsWeb.list.scheduleOne')}
                  </Anchor>
                ) : null}
              </Stack>
            </Paper>
          ) : (
            <Stack
              gap={4}
              component="ul"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label={t('auditsWeb.calendar.days')}
              hiddenFrom="sm"
            >
              {busy.map((d) => (
                <Group key={d.date} component="li" justify="space-between" gap="xs" wrap="wrap">
                  <Anchor component={Link} to={dayLink(d.date)} size="sm">
                    {f.day(d.date)}
                  </Anchor>
                  <Counts scheduled={d.scheduled} completed={d.completed} overdue={d.overdue} />
                </Group>
              ))}
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}

function Counts({ scheduled, completed, overdue }: { scheduled: number; completed: number; overdue: number }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap">
      {scheduled > 0 ? (
        <Badge size="sm" color="blue" variant="light">
          {t('auditsWeb.calendar.scheduledN', { count: scheduled })}
        </Badge>
      ) : null}
      {completed > 0 ? (
        <Badge size="sm" color="teal" variant="light">
          {t('auditsWeb.calendar.completedN', { count: completed })}
        </Badge>
      ) : null}
      {overdue > 0 ? (
        <Badge size="sm" color="orange" variant="light">
          {t('auditsWeb.calendar.overdueN', { count: overdue })}
        </Badge>
      ) : null}
    </Group>
  );
}

function DayCell({ date, day, to }: { date: string; day: AuditCalendar['days'][number] | undefined; to: string }) {
  const { t } = useTranslation();
  const f = useFormats();
  const n = Number(date.slice(8));
  const any = day && day.scheduled + day.completed + day.overdue > 0;
  const today = date === todayOf();
  const label = any
    ? `${f.day(date)}: ${[
        day.scheduled ? t('auditsWeb.calendar.scheduledN', { count: day.scheduled }) : null,
        day.completed ? t('auditsWeb.calendar.completedN', { count: day.completed }) : null,
        day.overdue ? t('auditsWeb.calendar.overdueN', { count: day.overdue }) : null,
      ]
        .filter(Boolean)
        .join(', ')}`
    : f.day(date);
  const dot = (value: number, color: string) =>
    value > 0 ? (
      <Text span size="xs" fw={700} c={`${color}.8`} style={{ lineHeight: 1.2 }}>
        {value}
      </Text>
    ) : null;
  const body = (
    <Paper
      withBorder
      radius="sm"
      p={4}
      mih={{ base: 48, sm: 72 }}
      bg={any ? undefined : 'var(--mantine-color-gray-0)'}
      style={{ borderColor: today ? 'var(--mantine-color-blue-5)' : undefined, borderWidth: today ? 2 : undefined }}
    >
      <Text size="xs" fw={today ? 700 : 500}>
        {n}
      </Text>
      {any ? (
        <>
          <Group gap={4} wrap="wrap" hiddenFrom="sm">
            {dot(day.scheduled, 'blue')}
            {dot(day.completed, 'teal')}
            {dot(day.overdue, 'orange')}
          </Group>
          <Stack gap={2} visibleFrom="sm">
            <Counts scheduled={day.scheduled} completed={day.completed} overdue={day.overdue} />
          </Stack>
        </>
      ) : null}
    </Paper>
  );
  return (
    <Box role="gridcell" aria-label={any ? undefined : label}>
      {any ? (
        <Anchor component={Link} to={to} underline="never" c="inherit" display="block" aria-label={label}>
          {body}
        </Anchor>
      ) : (
        body
      )}
    </Box>
  );
}

function Legend({ totals }: { totals: AuditCalendar['totals'] | undefined }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="wrap" aria-label={t('auditsWeb.calendar.totals')}>
      <Badge color="blue" variant="light">
        {t('auditsWeb.calendar.scheduledN', { count: totals?.scheduled ?? 0 })}
      </Badge>
      <Badge color="teal" variant="light">
        {t('auditsWeb.calendar.completedN', { count: totals?.completed ?? 0 })}
      </Badge>
      <Badge color="orange" variant="light">
        {t('auditsWeb.calendar.overdueN', { count: totals?.overdue ?? 0 })}
      </Badge>
    </Group>
  );
}
