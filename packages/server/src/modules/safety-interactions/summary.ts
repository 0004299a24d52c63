import {
  ACTION_OPEN_STATUSES,
  SI_TOPICS,
  siLocalDateTime,
  siSafeShare,
  type SiDashboardResponse,
  type SiSummaryQuery,
  type SiSummaryResponse,
  type SiTopic,
} from '@bulwark/domain';
import { and, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { actionStatusesOf } from '../actions/service.js';
import { scheduleTallies, upcomingSchedules } from './schedules.js';
import { siteRefs } from './sites.js';
import { safetyInteractions, siBehaviours } from './tables.js';

const num = (v: unknown) => Number(v ?? 0);

/** Completed interactions held (in site days) within the period, optionally at one site. */
function completedIn(from: string, to: string, siteId?: string): SQL {
  return and(
    eq(safetyInteractions.status, 'completed'),
    gte(safetyInteractions.heldOn, from),
    lte(safetyInteractions.heldOn, to),
    siteId ? eq(safetyInteractions.siteId, siteId) : undefined,
  )!;
}

/** Behaviour counts per (group, kind) over the completed interactions of the period. */
async function behaviourCounts(tx: Tx, period: SQL, group: SQL<string | null>) {
  const rows = await tx
    .select({ key: group, kind: siBehaviours.kind, n: sql<number>`count(*)::int` })
    .from(siBehaviours)
    .innerJoin(
      safetyInteractions,
      and(eq(safetyInteractions.organizationId, siBehaviours.organizationId), eq(safetyInteractions.id, siBehaviours.interactionId)),
    )
    .where(period)
    .groupBy(group, siBehaviours.kind);
  const out = new Map<string, { safe: number; at_risk: number }>();
  for (const r of rows) {
    const key = r.key ?? '';
    const t = out.get(key) ?? { safe: 0, at_risk: 0 };
    t[r.kind] += num(r.n);
    out.set(key, t);
  }
  return out;
}

/** Counts by topic, by site and by observer, and the plans of the period (only completed interactions count). */
export async function summary(tx: Tx, q: SiSummaryQuery, now = new Date()): Promise<SiSummaryResponse> {
  const period = completedIn(q.from, q.to, q.site_id);
  const [totals] = await tx
    .select({
      n: sql<number>`count(*)::int`,
      recognition: sql<number>`count(*) filter (where ${safetyInteractions.recognitionGiven})::int`,
    })
    .from(safetyInteractions)
    .where(period);

  const discussed = await tx
    .select({ topic: sql<string>`t`, n: sql<number>`count(*)::int` })
    .from(sql`${safetyInteractions}, unnest(${safetyInteractions.topics}) as t`)
    .where(period)
    .groupBy(sql`t`);
  const byTopicKind = await behaviourCounts(tx, period, sql<string>`${siBehaviours.topic}`);
  const by_topic = SI_TOPICS.map((topic) => ({
    topic,
    discussed: num(discussed.find((d) => d.topic === topic)?.n),
    safe: byTopicKind.get(topic)?.safe ?? 0,
    at_risk: byTopicKind.get(topic)?.at_risk ?? 0,
  }));
  const safe = by_topic.reduce((a, t) => a + t.safe, 0);
  const atRisk = by_topic.reduce((a, t) => a + t.at_risk, 0);

  const perSite = await tx
    .select({ siteId: safetyInteractions.siteId, n: sql<number>`count(*)::int` })
    .from(safetyInteractions)
    .where(period)
    .groupBy(safetyInteractions.siteId);
  const siteKinds = await behaviourCounts(tx, period, sql<string>`${safetyInteractions.siteId}::text`);
  const sites = await siteRefs(
    tx,
    perSite.map((s) => s.siteId),
  );
  const by_site = perSite
    .map((s) => ({
      site: { id: s.siteId, name: sites.get(s.siteId)?.name ?? '' },
      interactions: num(s.n),
      safe: siteKinds.get(s.siteId)?.safe ?? 0,
      at_risk: siteKinds.get(s.siteId)?.at_risk ?? 0,
    }))
    .sort((a, b) => b.interactions - a.interactions || a.site.name.localeCompare(b.site.name));

  const perObserver = await tx
    .select({
      id: safetyInteractions.observerId,
      name: users.fullName,
      n: sql<number>`count(*)::int`,
      recognition: sql<number>`count(*) filter (where ${safetyInteractions.recognitionGiven})::int`,
    })
    .from(safetyInteractions)
    .innerJoin(users, and(eq(users.organizationId, safetyInteractions.organizationId), eq(users.id, safetyInteractions.observerId)))
    .where(period)
    .groupBy(safetyInteractions.observerId, users.fullName);
  const observerKinds = await behaviourCounts(tx, period, sql<string>`${safetyInteractions.observerId}::text`);
  const by_observer = perObserver
    .map((o) => ({
      observer: { id: o.id!, full_name: o.name },
      interactions: num(o.n),
      recognition: num(o.recognition),
      safe: observerKinds.get(o.id!)?.safe ?? 0,
      at_risk: observerKinds.get(o.id!)?.at_risk ?? 0,
    }))
    .sort((a, b) => b.interactions - a.interactions || a.observer.full_name.localeCompare(b.observer.full_name));

  const plans = await scheduleTallies(tx, { from: q.from, to: q.to, site_id: q.site_id }, now);
  return {
    from: q.from,
    to: q.to,
    totals: {
      interactions: num(totals?.n),
      safe,
      at_risk: atRisk,
      recognition: num(totals?.recognition),
      safe_share: siSafeShare(safe, atRisk),
      planned: plans.planned,
      planned_done: plans.done,
      planned_missed: plans.missed,
    },
    by_topic,
    by_site,
    by_observer,
  };
}

/** 'YYYY-MM' months from `month` going back, oldest first. */
function monthsBack(month: string, n: number): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return Array.from({ length: n }, (_, i) => {
    const d = new Date(Date.UTC(y, m - 1 - (n - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

function lastDayOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/** The dashboard: this month (in the organisation's time zone) against the plan, six months of trend, open agreed actions. */
export async function dashboard(tx: Tx, orgTimeZone: string, now = new Date()): Promise<SiDashboardResponse> {
  const today = siLocalDateTime(orgTimeZone, now).slice(0, 10);
  const month = today.slice(0, 7);
  const months = monthsBack(month, 6);
  const first = `${months[0]}-01`;
  const monthEnd = lastDayOf(month);

  const [done] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(safetyInteractions)
    .where(completedIn(`${month}-01`, monthEnd));
  const plans = await scheduleTallies(tx, { from: `${month}-01`, to: monthEnd }, now);

  const window = completedIn(first, monthEnd);
  const perMonth = await tx
    .select({ month: sql<string>`to_char(${safetyInteractions.heldOn}, 'YYYY-MM')`, n: sql<number>`count(*)::int` })
    .from(safetyInteractions)
    .where(window)
    .groupBy(sql`1`);
  const monthKinds = await behaviourCounts(tx, window, sql<string>`to_char(${safetyInteractions.heldOn}, 'YYYY-MM')`);
  const trend = months.map((m) => ({
    month: m,
    interactions: num(perMonth.find((r) => r.month === m)?.n),
    safe: monthKinds.get(m)?.safe ?? 0,
    at_risk: monthKinds.get(m)?.at_risk ?? 0,
  }));

  const topicKinds = await behaviourCounts(tx, window, sql<string>`${siBehaviours.topic}`);
  const top_at_risk_topics = [...topicKinds.entries()]
    .map(([topic, t]) => ({ topic: topic as SiTopic, at_risk: t.at_risk }))
    .filter((t) => t.at_risk > 0)
    .sort((a, b) => b.at_risk - a.at_risk || SI_TOPICS.indexOf(a.topic) - SI_TOPICS.indexOf(b.topic))
    .slice(0, 5);

  // Open agreed actions of every interaction, read through the actions service.
  const ids = (await tx.select({ id: safetyInteractions.id }).from(safetyInteractions)).map((r) => r.id);
  const statuses = [...(await actionStatusesOf(tx, 'safety_interaction', ids)).values()].flat();
  const open = statuses.filter((s) => (ACTION_OPEN_STATUSES as readonly string[]).includes(s));

  return {
    month,
    done_this_month: num(done?.n),
    planned_this_month: plans.planned,
    planned_done_this_month: plans.done,
    missed_this_month: plans.missed,
    trend,
    top_at_risk_topics,
    open_actions: open.length,
    overdue_actions: open.filter((s) => s === 'overdue').length,
    upcoming: await upcomingSchedules(tx, today, 5, now),
  };
}
