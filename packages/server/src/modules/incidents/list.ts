import {
  currentInvestigationStep,
  formatIncidentSerial,
  incidentRiskLevel,
  incidentRiskScore,
  isRatingPending,
  oshaRecordable,
  parseIncidentSerial,
  type IncidentCountsQuery,
  type IncidentListItem,
  type IncidentListQuery,
  type IncidentStatusCounts,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { actionStatusesOf } from '../actions/service.js';
import { categories } from '../categories/read.js';
import { siteNodes, sites } from '../sites/read.js';
import { toLocalText } from './checks.js';
import { membersOf } from './record.js';
import { incidentFactorRootCauses, incidentFactors, incidents, incidentTimeline, incidentVictims } from './tables.js';

/** Set by the server, never by the query: a guest's lists hold only the reports it made (platform/auth/guests.ts). */
export type Narrowing = { reportedBy?: string | undefined };
type Filters = IncidentCountsQuery & { status?: IncidentListQuery['status'] } & Narrowing;

const reporter = alias(users, 'reporter');
const lead = alias(users, 'lead');

/** The WHERE of the list, the export and the tab counts: the same filters give the same rows. */
export function whereOf(f: Filters): SQL | undefined {
  const conds: Array<SQL | undefined> = [];
  if (f.reportedBy) conds.push(eq(incidents.reporterId, f.reportedBy));
  if (f.status && f.status !== 'all') conds.push(eq(incidents.status, f.status));
  if (f.site_id) conds.push(eq(incidents.siteId, f.site_id));
  if (f.severity === 'pending') conds.push(or(isNull(incidents.severity), isNull(incidents.likelihood)));
  else if (f.severity) conds.push(eq(incidents.severity, f.severity));
  if (f.category_id) conds.push(eq(incidents.categoryId, f.category_id));
  if (f.type) conds.push(eq(incidents.type, f.type));
  if (f.investigation_state) conds.push(eq(incidents.investigationState, f.investigation_state));
  // Local dates of the sites, both ends included.
  if (f.from) conds.push(sql`${incidents.occurredLocal} >= ${f.from}::timestamp`);
  if (f.to) conds.push(sql`${incidents.occurredLocal} < ${f.to}::timestamp + interval '1 day'`);
  const search = f.search?.trim();
  if (search) {
    const p = searchPattern(search);
    const serial = parseIncidentSerial(search);
    conds.push(sql`(
      ${serial !== null ? sql`${incidents.serial} = ${serial} or ` : sql``}
      ${incidents.description} ilike ${p} or ${incidents.actionTaken} ilike ${p}
      or exists (select 1 from ${sites} s where s.organization_id = ${incidents.organizationId} and s.id = ${incidents.siteId} and s.name ilike ${p})
      or exists (select 1 from ${categories} c where c.organization_id = ${incidents.organizationId} and c.id = ${incidents.categoryId} and c.name ilike ${p})
      or exists (select 1 from ${incidentVictims} v where v.organization_id = ${incidents.organizationId} and v.incident_id = ${incidents.id} and v.name ilike ${p})
      or exists (select 1 from ${users} u where u.organization_id = ${incidents.organizationId} and u.id = ${incidents.reporterId} and u.full_name ilike ${p})
      or ${incidents.reporterName} ilike ${p}
    )`);
  }
  return and(...conds);
}

export function baseQuery(tx: Tx) {
  return tx
    .select({
      o: incidents,
      /** created_at as PostgreSQL prints it, to the microsecond: the export's keyset compares it exactly. */
      createdText: sql<string>`${incidents.createdAt}::text`,
      siteName: sites.name,
      categoryName: categories.name,
      nodeName: siteNodes.name,
      reporterName: reporter.fullName,
      leadName: lead.fullName,
    })
    .from(incidents)
    .innerJoin(sites, eq(sites.id, incidents.siteId))
    .leftJoin(categories, eq(categories.id, incidents.categoryId))
    .leftJoin(siteNodes, eq(siteNodes.id, incidents.siteNodeId))
    .leftJoin(reporter, eq(reporter.id, incidents.reporterId))
    .leftJoin(lead, eq(lead.id, incidents.leadId));
}

export function orderOf(q: Pick<IncidentListQuery, 'sort' | 'direction'>) {
  const dir = q.direction === 'asc' ? asc : desc;
  if (q.sort === 'serial') return [dir(incidents.serial)];
  if (q.sort === 'created_at') return [dir(incidents.createdAt), dir(incidents.serial)];
  if (q.sort === 'target_date')
    return [sql`${incidents.targetDate} ${sql.raw(q.direction === 'asc' ? 'asc' : 'desc')} nulls last`, dir(incidents.serial)];
  return [dir(incidents.occurredLocal), dir(incidents.serial)];
}

export type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['where']>>[number];

/** Per incident: how many rows of a step table it has. */
async function countsBy(tx: Tx, ids: string[], table: typeof incidentTimeline | typeof incidentFactors): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: table.incidentId, n: count() })
    .from(table)
    .where(inArray(table.incidentId, ids))
    .groupBy(table.incidentId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

export async function toItems(tx: Tx, rows: Row[]): Promise<IncidentListItem[]> {
  const ids = rows.map((r) => r.o.id);
  const statuses = await actionStatusesOf(tx, 'incident', ids);
  const victims = ids.length
    ? await tx
        .select({
          incidentId: incidentVictims.incidentId,
          name: incidentVictims.name,
          type: incidentVictims.type,
          osha: incidentVictims.osha,
        })
        .from(incidentVictims)
        .where(inArray(incidentVictims.incidentId, ids))
        .orderBy(asc(incidentVictims.position))
    : [];
  // By incident once, not filtered per row: an export's page holds a thousand incidents.
  const victimsOf = new Map<string, typeof victims>();
  for (const v of victims) {
    const list = victimsOf.get(v.incidentId);
    if (list) list.push(v);
    else victimsOf.set(v.incidentId, [v]);
  }
  const members = await membersOf(tx, ids);
  const timeline = await countsBy(tx, ids, incidentTimeline);
  const factors = await countsBy(tx, ids, incidentFactors);
  const roots = new Map(
    ids.length
      ? (
          await tx
            .select({ id: incidentFactors.incidentId, n: count() })
            .from(incidentFactorRootCauses)
            .innerJoin(incidentFactors, eq(incidentFactors.id, incidentFactorRootCauses.factorId))
            .where(inArray(incidentFactors.incidentId, ids))
            .groupBy(incidentFactors.incidentId)
        ).map((r) => [r.id, Number(r.n)])
      : [],
  );
  return rows.map(({ o, siteName, categoryName, nodeName, reporterName, leadName }) => {
    const acts = statuses.get(o.id) ?? [];
    const mine = victimsOf.get(o.id) ?? [];
    const score = incidentRiskScore(o.severity, o.likelihood);
    return {
      id: o.id,
      serial: o.serial,
      serial_label: formatIncidentSerial(o.serial),
      type: o.type,
      category: o.categoryId && categoryName ? { id: o.categoryId, name: categoryName } : null,
      description: o.description,
      site: { id: o.siteId, name: siteName },
      site_node_name: nodeName ?? null,
      occurred_at: toLocalText(o.occurredLocal),
      severity: o.severity,
      likelihood: o.likelihood,
      rating_pending: isRatingPending(o),
      risk_level: incidentRiskLevel(score),
      status: o.status,
      investigation_required: o.investigationRequired,
      investigation_state: o.investigationState,
      current_step: currentInvestigationStep({
        investigationRequired: o.investigationRequired,
        leadId: o.leadId,
        targetDate: o.targetDate,
        memberIds: members.get(o.id) ?? [],
        timelineCount: timeline.get(o.id) ?? 0,
        factorCount: factors.get(o.id) ?? 0,
        rootCauseCount: roots.get(o.id) ?? 0,
        capaCount: acts.length,
        conclusion: o.conclusion,
        state: o.investigationState,
      }),
      lead: o.leadId && leadName ? { id: o.leadId, full_name: leadName } : null,
      target_date: o.targetDate,
      victims_count: mine.length,
      victim_names: mine.map((v) => v.name),
      reporter_name: reporterName ?? o.reporterName ?? null,
      source: o.source,
      actions_total: acts.length,
      actions_done: acts.filter((s) => s === 'completed' || s === 'closed').length,
      osha_recordable: mine.some((v) => oshaRecordable(o.oshaWorkRelated, v.type, v.osha)),
      created_at: o.createdAt.toISOString(),
    };
  });
}

export async function listIncidents(tx: Tx, q: IncidentListQuery & Narrowing) {
  const where = whereOf(q);
  const [total] = await tx.select({ n: count() }).from(incidents).where(where);
  const { limit, offset } = pageWindow(q);
  const rows = await baseQuery(tx)
    .where(where)
    .orderBy(...orderOf(q))
    .limit(limit)
    .offset(offset);
  return { incidents: await toItems(tx, rows), total: Number(total?.n ?? 0) };
}

export async function statusCounts(tx: Tx, f: Filters): Promise<IncidentStatusCounts> {
  const rows = await tx
    .select({
      status: incidents.status,
      n: count(),
      pending: sql<number>`count(*) filter (where ${incidents.severity} is null or ${incidents.likelihood} is null)::integer`,
    })
    .from(incidents)
    .where(whereOf({ ...f, status: 'all' }))
    .groupBy(incidents.status);
  const counts = { all: 0, open: 0, overdue: 0, closed: 0, rating_pending: 0 };
  for (const r of rows) {
    counts[r.status] = Number(r.n);
    counts.all += Number(r.n);
    counts.rating_pending += Number(r.pending);
  }
  return { counts };
}
