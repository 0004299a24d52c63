import {
  AUDIT_TAB_STATUSES,
  AUDIT_TABS,
  formatAuditSerial,
  parseAuditSerial,
  type AuditBySite,
  type AuditCountsQuery,
  type AuditListItem,
  type AuditListQuery,
  type AuditTab,
  type AuditTabCounts,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { actionStatusesOf } from '../actions/service.js';
import { siteNodes, sites } from '../sites/read.js';
import { auditKeyFindings, audits, auditTemplates } from './tables.js';

/** The audits list by audit or by site, its tab totals and exports (the same filters give the same audits). */

export type AuditFilters = Partial<AuditCountsQuery> & { tab?: AuditTab | undefined };

const auditor = alias(users, 'auditor');
const auditee = alias(users, 'auditee');

export function whereOf(f: AuditFilters): SQL | undefined {
  const conds: Array<SQL | undefined> = [];
  if (f.tab) conds.push(inArray(audits.status, [...AUDIT_TAB_STATUSES[f.tab]]));
  if (f.site_id) conds.push(eq(audits.siteId, f.site_id));
  if (f.template_id) conds.push(eq(audits.templateId, f.template_id));
  if (f.frequency) conds.push(eq(audits.frequency, f.frequency));
  if (f.auditor_id) conds.push(eq(audits.auditorId, f.auditor_id));
  if (f.type)
    conds.push(
      sql`exists (select 1 from ${auditTemplates} t where t.organization_id = ${audits.organizationId} and t.id = ${audits.templateId} and t.type = ${f.type})`,
    );
  if (f.from) conds.push(sql`${audits.dueDate} >= ${f.from}::date`);
  if (f.to) conds.push(sql`${audits.dueDate} <= ${f.to}::date`);
  const search = f.search?.trim();
  if (search) {
    const p = searchPattern(search);
    const serial = parseAuditSerial(search);
    conds.push(sql`(
      ${serial !== null ? sql`${audits.serial} = ${serial} or ` : sql``}
      exists (select 1 from ${auditTemplates} t where t.organization_id = ${audits.organizationId} and t.id = ${audits.templateId} and t.name ilike ${p})
      or exists (select 1 from ${sites} s where s.organization_id = ${audits.organizationId} and s.id = ${audits.siteId} and s.name ilike ${p})
      or exists (select 1 from ${users} u where u.organization_id = ${audits.organizationId} and u.id in (${audits.auditorId}, ${audits.auditeeId}) and u.full_name ilike ${p})
    )`);
  }
  return and(...conds);
}

const SORTS = {
  due_date: audits.dueDate,
  serial: audits.serial,
  score: audits.scorePercent,
  completed_at: audits.completedAt,
} as const;

async function itemsOf(tx: Tx, where: SQL | undefined, order: SQL[], window?: { limit: number; offset: number }): Promise<AuditListItem[]> {
  const q = tx
    .select({
      a: audits,
      template: { id: auditTemplates.id, name: auditTemplates.name, type: auditTemplates.type, icon: auditTemplates.icon },
      siteName: sites.name,
      nodeName: siteNodes.name,
      auditorName: auditor.fullName,
      auditeeName: auditee.fullName,
    })
    .from(audits)
    .innerJoin(auditTemplates, and(eq(auditTemplates.organizationId, audits.organizationId), eq(auditTemplates.id, audits.templateId)))
    .innerJoin(sites, and(eq(sites.organizationId, audits.organizationId), eq(sites.id, audits.siteId)))
    .leftJoin(siteNodes, and(eq(siteNodes.organizationId, audits.organizationId), eq(siteNodes.id, audits.siteNodeId)))
    .innerJoin(auditor, and(eq(auditor.organizationId, audits.organizationId), eq(auditor.id, audits.auditorId)))
    .leftJoin(auditee, and(eq(auditee.organizationId, audits.organizationId), eq(auditee.id, audits.auditeeId)))
    .where(where)
    .orderBy(...order);
  const rows = window ? await q.limit(window.limit).offset(window.offset) : await q;
  const ids = rows.map((r) => r.a.id);
  const statuses = await actionStatusesOf(tx, 'audit', ids);
  const findings = new Map(
    ids.length
      ? (
          await tx
            .select({ id: auditKeyFindings.auditId, n: count() })
            .from(auditKeyFindings)
            .where(inArray(auditKeyFindings.auditId, ids))
            .groupBy(auditKeyFindings.auditId)
        ).map((r) => [r.id, r.n])
      : [],
  );
  return rows.map(({ a, template, siteName, nodeName, auditorName, auditeeName }) => {
    const acts = statuses.get(a.id) ?? [];
    return {
      id: a.id,
      serial: a.serial,
      serial_label: formatAuditSerial(a.serial),
      template,
      site: { id: a.siteId, name: siteName },
      site_node_name: nodeName,
      auditor: { id: a.auditorId, full_name: auditorName },
      auditee: a.auditeeId && auditeeName ? { id: a.auditeeId, full_name: auditeeName } : null,
      frequency: a.frequency,
      due_date: a.dueDate,
      window_end: a.windowEnd,
      status: a.status,
      late: a.overdueAt !== null,
      started_at: a.startedAt?.toISOString() ?? null,
      completed_at: a.completedAt?.toISOString() ?? null,
      score_percent: a.scorePercent,
      failed_count: a.failedCount,
      critical_failed_count: a.criticalFailedCount,
      key_findings_count: findings.get(a.id) ?? 0,
      actions_total: acts.length,
      actions_done: acts.filter((s) => s === 'completed' || s === 'closed').length,
    };
  });
}

function orderOf(q: Pick<AuditListQuery, 'sort' | 'direction'>): SQL[] {
  const col = SORTS[q.sort];
  const dir = q.direction === 'asc' ? asc : desc;
  return [sql`${dir(col)} nulls last`, desc(audits.serial)];
}

/** GET /api/v2/audits: a page of the filtered audits and how many there are. */
export async function listAudits(tx: Tx, q: AuditListQuery) {
  const where = whereOf(q);
  const [total] = await tx.select({ n: count() }).from(audits).where(where);
  return { audits: await itemsOf(tx, where, orderOf(q), pageWindow(q)), total: total!.n };
}

/** The export: every filtered audit, in the list's order. */
export function allAudits(tx: Tx, q: AuditListQuery) {
  return itemsOf(tx, whereOf(q), orderOf(q));
}

/** How many audits each tab holds for the filters. */
export async function tabCounts(tx: Tx, f: AuditFilters): Promise<AuditTabCounts> {
  const rows = await tx
    .select({ status: audits.status, n: count() })
    .from(audits)
    .where(whereOf({ ...f, tab: undefined }))
    .groupBy(audits.status);
  const by = new Map(rows.map((r) => [r.status, r.n]));
  const counts = Object.fromEntries(AUDIT_TABS.map((t) => [t, AUDIT_TAB_STATUSES[t].reduce((n, s) => n + (by.get(s) ?? 0), 0)])) as Record<
    AuditTab,
    number
  >;
  return { ...counts, total: rows.reduce((n, r) => n + r.n, 0) };
}

/** GET /api/v2/audits/by_site: per site, its tab counts and the average score of its completed audits. */
export async function auditsBySite(tx: Tx, f: AuditFilters): Promise<AuditBySite> {
  const rows = await tx
    .select({
      siteId: audits.siteId,
      siteName: sites.name,
      status: audits.status,
      n: count(),
      avg: sql<number | null>`avg(${audits.scorePercent}) filter (where ${audits.status} in ('completed', 'approved'))`,
      scored: sql<number>`(count(${audits.scorePercent}) filter (where ${audits.status} in ('completed', 'approved')))::int`,
      last: sql<string | null>`max(${audits.completedAt})`,
    })
    .from(audits)
    .innerJoin(sites, and(eq(sites.organizationId, audits.organizationId), eq(sites.id, audits.siteId)))
    .where(whereOf({ ...f, tab: undefined }))
    .groupBy(audits.siteId, sites.name, audits.status);
  const bySite = new Map<string, typeof rows>();
  for (const r of rows) bySite.set(r.siteId, [...(bySite.get(r.siteId) ?? []), r]);
  const out: AuditBySite['sites'] = [];
  for (const [siteId, group] of bySite) {
    const by = new Map(group.map((g) => [g.status, g.n]));
    const counts = Object.fromEntries(
      AUDIT_TABS.map((t) => [t, AUDIT_TAB_STATUSES[t].reduce((n, s) => n + (by.get(s) ?? 0), 0)]),
    ) as Record<AuditTab, number>;
    const scored = group.filter((g) => g.avg !== null && g.scored > 0);
    const weight = scored.reduce((n, g) => n + g.scored, 0);
    const average = weight ? Math.round((scored.reduce((n, g) => n + Number(g.avg) * g.scored, 0) / weight) * 10) / 10 : null;
    const last =
      group
        .map((g) => g.last)
        .filter((x): x is string => !!x)
        .sort()
        .at(-1) ?? null;
    out.push({
      site: { id: siteId, name: group[0]!.siteName },
      counts: { ...counts, total: group.reduce((n, g) => n + g.n, 0) },
      average_score: average,
      last_completed_at: last ? new Date(last).toISOString() : null,
    });
  }
  return { sites: out.sort((a, b) => a.site.name.localeCompare(b.site.name)) };
}
