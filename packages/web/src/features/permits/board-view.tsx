import type { BoardPermit, PermitBoard } from '@bulwark/domain';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { boardPhase, clock, PHASE_COLOR, secondsNow } from './board-model.js';
import { PermitStatusBadge } from './status-badge.js';

/** Seconds since `since` (ms), ticking every second. */
function useElapsed(since: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return Math.max(0, (now - since) / 1000);
}

/** The site's wall clock, ticking. */
function SiteClock({ zone, elapsed, at }: { zone: string; elapsed: number; at: string }) {
  const { i18n } = useTranslation();
  const now = new Date(new Date(at).getTime() + elapsed * 1000);
  let text: string;
  try {
    text = new Intl.DateTimeFormat(i18n.language, { timeZone: zone, dateStyle: 'medium', timeStyle: 'medium' }).format(now);
  } catch {
    text = now.toISOString();
  }
  return (
    <Text fz={{ base: 'lg', sm: 28 }} fw={600} style={{ fontVariantNumeric: 'tabular-nums' }} aria-live="off">
      {text}
    </Text>
  );
}

function Tile({ p, elapsed, links }: { p: BoardPermit; elapsed: number; links: boolean }) {
  const { t } = useTranslation();
  const phase = boardPhase(p, elapsed);
  const left = secondsNow(p.time_left_seconds, elapsed);
  const starts = secondsNow(p.starts_in_seconds, elapsed);
  const countdown =
    phase === 'upcoming'
      ? t('permitsWeb.board.startsIn', { time: clock(starts) })
      : phase === 'ended'
        ? t('permitsWeb.board.endedAgo', { time: clock(left) })
        : t('permitsWeb.board.left', { time: clock(left) });
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      style={{ borderLeft: `8px solid var(--mantine-color-${PHASE_COLOR[phase]}-6)` }}
      component="article"
      aria-label={p.number}
    >
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          {links && p.id ? (
            <Anchor component={Link} to={`/permit/${p.id}/summary`} fz={{ base: 22, sm: 30 }} fw={700}>
              {p.number}
            </Anchor>
          ) : (
            <Text fz={{ base: 22, sm: 30 }} fw={700}>
              {p.number}
            </Text>
          )}
          <PermitStatusBadge status={p.status} size="lg" />
        </Group>
        <Text fz={{ base: 'lg', sm: 22 }} fw={600}>
          {p.type}
        </Text>
        <Text
          fz={{ base: 34, sm: 44 }}
          fw={800}
          c={`${PHASE_COLOR[phase]}.8`}
          style={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1.1 }}
        >
          {countdown}
        </Text>
        <Text fz={{ base: 'md', sm: 'lg' }}>
          {t('permitsWeb.board.window', { from: p.start_at.replace('T', ' '), to: p.end_at.replace('T', ' ') })}
        </Text>
        <Text fz={{ base: 'md', sm: 'lg' }} style={{ overflowWrap: 'anywhere' }}>
          <Text span c="dimmed">
            {t('permits.fields.workers')}:
          </Text>{' '}
          {p.workers.join(', ') || '—'}
        </Text>
        <Text fz={{ base: 'md', sm: 'lg' }}>
          <Text span c="dimmed">
            {t('permitsWeb.board.issuer')}:
          </Text>{' '}
          {p.issuer ?? '—'}
        </Text>
        {p.extension_pending ? (
          <Badge color="orange" variant="light" size="lg">
            {t('permitsWeb.list.extensionPending')}
          </Badge>
        ) : null}
      </Stack>
    </Paper>
  );
}

/**
 * The live board of one site for a wall screen: every permit live now or starting within a day, by
 * area, with type, workers, issuer and the time left counting down each second; large type, nothing
 * to press. `updatedAt` is when the answer arrived (the countdown runs from there).
 */
export function BoardView({ board, updatedAt, links }: { board: PermitBoard; updatedAt: number; links: boolean }) {
  const { t } = useTranslation();
  const elapsed = useElapsed(updatedAt);
  const total = board.areas.reduce((n, a) => n + a.permits.length, 0);
  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm" wrap="wrap" align="flex-end">
        <div>
          <Title order={2} fz={{ base: 26, sm: 36 }}>
            {board.site.name}
          </Title>
          <Text fz={{ base: 'md', sm: 'xl' }} c="dimmed">
            {t('permitsWeb.board.count', { count: total })}
          </Text>
        </div>
        <SiteClock zone={board.site.time_zone} elapsed={elapsed} at={board.generated_at} />
      </Group>
      {total === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text fz={{ base: 'lg', sm: 24 }} c="dimmed" ta="center">
            {t('permitsWeb.board.empty')}
          </Text>
        </Paper>
      ) : (
        board.areas
          .filter((a) => a.permits.length > 0)
          .map((a) => (
            <Stack key={a.area?.id ?? 'site'} gap="xs" component="section" aria-label={a.area?.full_name ?? t('permits.board.wholeSite')}>
              <Title order={3} fz={{ base: 20, sm: 28 }}>
                {a.area?.full_name ?? t('permits.board.wholeSite')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
                {a.permits.map((p) => (
                  <Tile key={p.number} p={p} elapsed={elapsed} links={links} />
                ))}
              </SimpleGrid>
            </Stack>
          ))
      )}
    </Stack>
  );
}
