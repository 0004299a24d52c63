import { auditDueDatesUntil, auditWindowEnd, localDateIn, nextAuditStatus } from '@bulwark/domain';
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import { inTenant, type Tx } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { sites } from '../sites/read.js';
import { announce, AUDIT_ENTITY, mailAboutAudit, type AuditsDeps } from './common.js';
import { audits, auditScheduleSites, auditSchedules, auditSerials, auditTemplates } from './tables.js';

/**
 * The schedules' job (issue 17): it makes each due audit once and tells its auditor, and it marks
 * overdue the audits whose window has passed at their site. pg-boss runs it every hour (a site's day
 * starts at its own midnight, so an hourly run starts every site's audits on their day whatever its
 * time zone); the work of each run is the day's.
 *
 * Once, even with two app nodes: audits are unique per (schedule, site, due date) and inserted with
 * "on conflict do nothing"; a transaction-scoped lock per organisation makes a second run wait for the
 * first and then find its audits, so it neither inserts twice nor wastes a serial.
 */
export const AUDITS_SCHEDULE_QUEUE = 'audits-schedule-sweep';

type AuditRow = typeof audits.$inferSelect;

async function nextAuditSerial(tx: Tx): Promise<number> {
  const [row] = await tx
    .insert(auditSerials)
    .values({ lastSerial: 1 })
    .onConflictDoUpdate({ target: auditSerials.organizationId, set: { lastSerial: sql`${auditSerials.lastSerial} + 1` } })
    .returning({ serial: auditSerials.lastSerial });
  return row!.serial;
}

/** The auditor hears of an audit made for them (mail `audit_scheduled`, in the app). */
export async function tellScheduled(tx: Tx, deps: AuditsDeps, a: Pick<AuditRow, 'id' | 'templateId' | 'siteId' | 'auditorId' | 'dueDate'>) {
  const [info] = await tx
    .select({ title: auditTemplates.name, site: sites.name })
    .from(auditTemplates)
    .innerJoin(sites, eq(sites.id, a.siteId))
    .where(eq(auditTemplates.id, a.templateId));
  return mailAboutAudit(tx, deps, 'audit_scheduled', a.auditorId, a, () => ({
    audit_title: info?.title ?? '',
    site_name: info?.site ?? '',
    start_date: a.dueDate,
  }));
}

/**
 * Makes the audits due by today at each site of these schedules (active ones of an active template),
 * in the caller's transaction; answers the new audits and the mail to dispatch after the commit.
 */
export async function makeDueAudits(tx: Tx, deps: AuditsDeps, scheduleIds: readonly string[] | 'all', now: Date) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('audits-make:' || app_current_org()::text, 0))`);
  const rows = await tx
    .select({ s: auditSchedules, siteId: sites.id, timeZone: sites.timeZone })
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
        scheduleIds === 'all' ? undefined : inArray(auditSchedules.id, [...scheduleIds]),
      ),
    );
  const ids: string[] = [];
  const mail: QueuedTemplatedMail[] = [];
  for (const { s, siteId, timeZone } of rows) {
    const times = { frequency: s.frequency, start_date: s.startDate, end_date: s.endDate };
    const due = auditDueDatesUntil(times, localDateIn(timeZone, now));
    if (due.length === 0) continue;
    const existing = new Set(
      (
        await tx
          .select({ due: audits.dueDate })
          .from(audits)
          .where(and(eq(audits.scheduleId, s.id), eq(audits.siteId, siteId), inArray(audits.dueDate, due)))
      ).map((r) => r.due),
    );
    for (const dueDate of due.filter((d) => !existing.has(d))) {
      const [made] = await tx
        .insert(audits)
        .values({
          serial: await nextAuditSerial(tx),
          templateId: s.templateId,
          scheduleId: s.id,
          siteId,
          siteNodeId: s.siteNodeId,
          auditorId: s.auditorId,
          auditeeId: s.auditeeId,
          frequency: s.frequency,
          dueDate,
          windowEnd: auditWindowEnd(times, dueDate),
          createdBy: s.createdBy,
        })
        .onConflictDoNothing({ target: [audits.organizationId, audits.scheduleId, audits.siteId, audits.dueDate] })
        .returning();
      if (!made) continue;
      ids.push(made.id);
      await recordAudit(tx, {
        actorUserId: null,
        action: 'audit_created',
        entity: AUDIT_ENTITY,
        entityId: made.id,
        changes: { schedule_id: s.id, due_date: dueDate },
      });
      const m = await tellScheduled(tx, deps, made);
      if (m) mail.push(m);
    }
  }
  return { ids, mail };
}

/** Marks overdue the audits not completed whose window has passed at their site; tells the auditor. */
async function markOverdue(tx: Tx, deps: AuditsDeps, now: Date) {
  const horizon = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  const rows = await tx
    .select({ a: audits, timeZone: sites.timeZone, siteName: sites.name, title: auditTemplates.name })
    .from(audits)
    .innerJoin(sites, and(eq(sites.organizationId, audits.organizationId), eq(sites.id, audits.siteId)))
    .innerJoin(auditTemplates, and(eq(auditTemplates.organizationId, audits.organizationId), eq(auditTemplates.id, audits.templateId)))
    .where(and(inArray(audits.status, ['scheduled', 'in_progress']), isNull(audits.overdueAt), lte(audits.windowEnd, horizon)))
    .for('update', { of: audits });
  const ids: string[] = [];
  const mail: QueuedTemplatedMail[] = [];
  for (const { a, timeZone, siteName, title } of rows) {
    if (a.windowEnd >= localDateIn(timeZone, now)) continue;
    const to = nextAuditStatus({ status: a.status, started: a.startedAt !== null, markedOverdue: false }, 'overdue');
    if (!to) continue;
    await tx.update(audits).set({ status: to, overdueAt: now, updatedAt: now }).where(eq(audits.id, a.id));
    await recordAudit(tx, {
      actorUserId: null,
      action: 'audit_overdue',
      entity: AUDIT_ENTITY,
      entityId: a.id,
      changes: { diff: { status: { from: a.status, to } } },
    });
    ids.push(a.id);
    const m = await mailAboutAudit(tx, deps, 'audit_overdue', a.auditorId, a, () => ({
      audit_title: title,
      site_name: siteName,
      due_date: a.dueDate,
    }));
    if (m) mail.push(m);
  }
  return { ids, mail };
}

/**
 * The job: in every organisation with schedules or open audits, make the due audits and mark the
 * overdue ones, each organisation in its own transaction. `now` is a parameter so tests move time.
 */
export async function runAuditSchedules(deps: AuditsDeps, now: Date = new Date()): Promise<{ made: string[]; overdue: string[] }> {
  const orgs = await deps.db.owner.execute<{ id: string }>(sql`
    select o.id from ${organizations} o where o.deleted_at is null and (
      exists (select 1 from ${auditSchedules} s where s.organization_id = o.id and s.active)
      or exists (select 1 from ${audits} a where a.organization_id = o.id and a.status in ('scheduled', 'in_progress') and a.overdue_at is null))`);
  const made: string[] = [];
  const overdue: string[] = [];
  for (const org of orgs.rows) {
    const result = await inTenant(deps.db.app, org.id, async (tx) => {
      const m = await makeDueAudits(tx, deps, 'all', now);
      const o = await markOverdue(tx, deps, now);
      return { made: m.ids, overdue: o.ids, mail: [...m.mail, ...o.mail] };
    });
    for (const id of result.made) announce(deps, org.id, id, 'created');
    for (const id of result.overdue) announce(deps, org.id, id);
    if (result.mail.length) await dispatchTemplatedMail(deps, result.mail);
    made.push(...result.made);
    overdue.push(...result.overdue);
  }
  return { made, overdue };
}
