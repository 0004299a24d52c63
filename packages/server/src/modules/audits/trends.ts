import {
  addAuditDays,
  addAuditMonths,
  auditDueDatesBetween,
  auditMonthBounds,
  localDateIn,
  type AuditCalendar,
  type AuditTrends,
  type AuditType,
} from '@bulwark/domain';
import { and, asc, eq, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { sites } from '../sites/read.js';
import { currentOrganization } from './common.js';
import { whereOf } from './list.js';
import { audits, auditScheduleSites, auditSchedules, auditTemplates } from './tables.js';
import { mostFailed } from './summaries.js';

/** The month calendar (scheduled against completed) and the trends per template. */

type CalendarFilters = { month: string; site_id?: string | undefined; type?: AuditType | undefined; template_id?: string | undefined };

/**
 * POST /api/audits/schedulesinfo: per day of the month, the audits due (made, and still to be made by
 * the active schedules), those of them now overdue, and the audits completed that day at their site.
 */
export async function calendar(tx: Tx, f: CalendarFilters): Promise<AuditCalendar> {
  const { from, to } = auditMonthBounds(f.month);
  const filters = { site_id: f.site_id, type: f.type, template_id: f.template_id };
  const due = await tx
    .select({ scheduleId: audits.scheduleId, siteId: audits.siteId, day: audits.dueDate, status: audits.status })
    .from(audits)
    .where(and(whereOf({ ...filters, from, to })));
  const done = await tx
    .select({ day: audits.completedOn })
    .from(audits)
    .where(and(whereOf(filters), isNotNull(audits.completedOn), gte(audits.completedOn, from), lte(audits.completedOn, to)));
  const made = new Set(due.filter((d) => d.scheduleId).map((d) => `${d.scheduleId}|${d.siteId}|${d.day}`));
  const schedules = await tx
    .select({ s: auditSchedules, siteId: auditScheduleSites.siteId })
    .from(auditSchedules)
    .innerJoin(
      auditTemplates,
      and(eq(auditTemplates.organizationId, auditSchedules.organizationId), eq(auditTemplates.id, auditSchedules.templateId)),
    )
    .innerJoin(
      auditScheduleSites,
      and(eq(auditScheduleSites.organizationId, auditSchedules.organizationId), eq(auditScheduleSites.scheduleId, auditSchedules.id)),
    )
    .innerJoin(sites, and(eq(sites.organizationId, auditScheduleSites.organizationId), eq(sites.id, auditScheduleSites.siteId)))
    .where(
      and(
        eq(auditSchedules.active, true),
        eq(auditTemplates.active, true),
        eq(sites.isActive, true),
        lte(auditSchedules.startDate, to),
        f.site_id ? eq(auditScheduleSites.siteId, f.site_id) : undefined,
        f.type ? eq(auditTemplates.type, f.type) : undefined,
        f.template_id ? eq(auditSchedules.templateId, f.template_id) : undefined,
      ),
    );
  const scheduled = new Map<string, number>();
  const bump = (m: Map<string, number>, day: string) => m.set(day, (m.get(day) ?? 0) + 1);
  for (const d of due) bump(scheduled, d.day);
  for (const { s, siteId } of schedules) {
    const times = { frequency: s.frequency, start_date: s.startDate, end_date: s.endDate };
    for (const day of auditDueDatesBetween(times, from, to)) if (!made.has(`${s.id}|${siteId}|${day}`)) bump(scheduled, day);
  }
  const overdue = new Map<string, number>();
  for (const d of due.filter((x) => x.status === 'overdue')) bump(overdue, d.day);
  const completed = new Map<string, number>();
  for (const d of done) bump(completed, d.day!);
  const days: AuditCalendar['days'] = [];
  for (let day = from; day <= to; day = addAuditDays(day, 1))
    days.push({ date: day, scheduled: scheduled.get(day) ?? 0, completed: completed.get(day) ?? 0, overdue: overdue.get(day) ?? 0 });
  const sum = (k: 'scheduled' | 'completed' | 'overdue') => days.reduce((n, d) => n + d[k], 0);
  return { month: f.month, days, totals: { scheduled: sum('scheduled'), completed: sum('completed'), overdue: sum('overdue') } };
}

/**
 * GET /api/audit_trends (beyond the spec): for each template, the average score of its completed and
 * approved audits per site and month of completion, and its questions failed most often; the last twelve
 * months (the organisation's) unless a range is given.
 */
export async function trends(
  tx: Tx,
  q: { template_id?: string | undefined; site_id?: string | undefined; from?: string | undefined; to?: string | undefined },
  now = new Date(),
): Promise<AuditTrends> {
  const thisMonth = localDateIn((await currentOrganization(tx)).timezone, now).slice(0, 7);
  const to = q.to ?? thisMonth;
  const from = q.from ?? addAuditMonths(`${to}-01`, -11).slice(0, 7);
  const range = and(
    inArray(audits.status, ['completed', 'approved']),
    isNotNull(audits.completedOn),
    gte(audits.completedOn, `${from}-01`),
    lte(audits.completedOn, auditMonthBounds(to).to),
    q.template_id ? eq(audits.templateId, q.template_id) : undefined,
    q.site_id ? eq(audits.siteId, q.site_id) : undefined,
  );
  const month = sql<string>`to_char(${audits.completedOn}, 'YYYY-MM')`;
  const points = await tx
    .select({
      templateId: audits.templateId,
      siteId: audits.siteId,
      siteName: sites.name,
      month,
      avg: sql<number>`avg(${audits.scorePercent})`,
      n: sql<number>`count(*)::int`,
    })
    .from(audits)
    .innerJoin(sites, and(eq(sites.organizationId, audits.organizationId), eq(sites.id, audits.siteId)))
    .where(and(range, isNotNull(audits.scorePercent)))
    .groupBy(audits.templateId, audits.siteId, sites.name, month)
    .orderBy(asc(month));
  const templateIds = [...new Set((await tx.selectDistinct({ id: audits.templateId }).from(audits).where(range)).map((r) => r.id))];
  const templates = templateIds.length
    ? await tx
        .select({ id: auditTemplates.id, name: auditTemplates.name, type: auditTemplates.type })
        .from(auditTemplates)
        .where(inArray(auditTemplates.id, templateIds))
        .orderBy(asc(sql`lower(${auditTemplates.name})`))
    : [];
  const out: AuditTrends['templates'] = [];
  for (const t of templates) {
    const mine = points.filter((p) => p.templateId === t.id);
    const siteIds = [...new Set(mine.map((p) => p.siteId))];
    out.push({
      template: t,
      series: siteIds.map((siteId) => ({
        site: { id: siteId, name: mine.find((p) => p.siteId === siteId)!.siteName },
        points: mine
          .filter((p) => p.siteId === siteId)
          .map((p) => ({ month: p.month, average_score: Math.round(Number(p.avg) * 10) / 10, audits: p.n })),
      })),
      most_failed: await mostFailed(tx, and(range, eq(audits.templateId, t.id)), 5),
    });
  }
  return { from, to, templates: out };
}
