import {
  auditNthDueDate,
  localDateIn,
  pagination,
  type AuditSchedule,
  type AuditScheduleCreate,
  type AuditScheduleUpdate,
  type AuditScheduleTimes,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { siteFullNames } from '../sites/service.js';
import { sites } from '../sites/read.js';
import {
  activeMembers,
  announce,
  freeLimits,
  isAreaOf,
  isAuditor,
  namesOf,
  personOf,
  refuse,
  refuseOverLimit,
  SCHEDULE_ENTITY,
  sitesByIds,
  type AfterCommit,
  type AuditsDeps,
  type FieldErrors,
} from './common.js';
import { makeDueAudits, tellScheduled } from './scheduler.js';
import { audits, auditScheduleSites, auditSchedules, auditTemplates } from './tables.js';

type ScheduleRow = typeof auditSchedules.$inferSelect;

/** The next due date on or after `today` (null once the schedule has ended). */
export function nextDueDate(s: AuditScheduleTimes, today: string): string | null {
  for (let n = 0; n < 100_000; n += 1) {
    const due = auditNthDueDate(s.start_date, s.frequency, n);
    if (s.end_date !== null && due > s.end_date) return null;
    if (due >= today) return due;
    if (s.frequency === 'once') return null;
  }
  return null;
}

const times = (s: ScheduleRow): AuditScheduleTimes => ({ frequency: s.frequency, start_date: s.startDate, end_date: s.endDate });

export async function scheduleViews(tx: Tx, rows: ScheduleRow[], now = new Date()): Promise<AuditSchedule[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const links = await tx
    .select({ scheduleId: auditScheduleSites.scheduleId, id: sites.id, name: sites.name, timeZone: sites.timeZone })
    .from(auditScheduleSites)
    .innerJoin(sites, and(eq(sites.organizationId, auditScheduleSites.organizationId), eq(sites.id, auditScheduleSites.siteId)))
    .where(inArray(auditScheduleSites.scheduleId, ids))
    .orderBy(asc(sql`lower(${sites.name})`));
  const templates = new Map(
    (
      await tx
        .select({ id: auditTemplates.id, name: auditTemplates.name, type: auditTemplates.type, icon: auditTemplates.icon })
        .from(auditTemplates)
        .where(
          inArray(
            auditTemplates.id,
            rows.map((r) => r.templateId),
          ),
        )
    ).map((t) => [t.id, t]),
  );
  const made = new Map(
    (
      await tx.select({ id: audits.scheduleId, n: count() }).from(audits).where(inArray(audits.scheduleId, ids)).groupBy(audits.scheduleId)
    ).map((r) => [r.id!, r.n]),
  );
  const names = await namesOf(
    tx,
    rows.flatMap((r) => [r.auditorId, r.auditeeId, r.createdBy]),
  );
  const nodes = rows.some((r) => r.siteNodeId)
    ? new Map((await siteFullNames(tx, false)).map((n) => [n.id, n.full_name]))
    : new Map<string, string>();
  return rows.map((r) => {
    const own = links.filter((l) => l.scheduleId === r.id);
    const today = own[0] ? localDateIn(own[0].timeZone, now) : now.toISOString().slice(0, 10);
    return {
      id: r.id,
      template: templates.get(r.templateId)!,
      sites: own.map((l) => ({ id: l.id, name: l.name, time_zone: l.timeZone })),
      site_node: r.siteNodeId ? { id: r.siteNodeId, full_name: nodes.get(r.siteNodeId) ?? '' } : null,
      auditor: personOf(names, r.auditorId) ?? { id: r.auditorId, full_name: '' },
      auditee: personOf(names, r.auditeeId),
      frequency: r.frequency,
      start_date: r.startDate,
      end_date: r.endDate,
      active: r.active,
      audits_count: made.get(r.id) ?? 0,
      next_due_date: r.active ? nextDueDate(times(r), today) : null,
      created_by: personOf(names, r.createdBy),
      created_at: r.createdAt.toISOString(),
      updated_at: r.updatedAt.toISOString(),
    };
  });
}

export async function loadSchedule(tx: Tx, id: string, lock = false): Promise<ScheduleRow> {
  const q = tx.select().from(auditSchedules).where(eq(auditSchedules.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

export async function scheduleView(tx: Tx, id: string): Promise<AuditSchedule> {
  return (await scheduleViews(tx, [await loadSchedule(tx, id)]))[0]!;
}

/** GET /api/audit_schedules. */
export async function listSchedules(
  tx: Tx,
  q: {
    page: number;
    per_page: number;
    search?: string | undefined;
    site_id?: string | undefined;
    template_id?: string | undefined;
    type?: string | undefined;
    frequency?: string | undefined;
    active?: boolean | undefined;
  },
) {
  const like = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = and(
    q.template_id ? eq(auditSchedules.templateId, q.template_id) : undefined,
    q.frequency ? eq(auditSchedules.frequency, q.frequency as ScheduleRow['frequency']) : undefined,
    q.active === undefined ? undefined : eq(auditSchedules.active, q.active),
    q.site_id
      ? sql`exists (select 1 from ${auditScheduleSites} ss where ss.schedule_id = ${auditSchedules.id} and ss.site_id = ${q.site_id}::uuid)`
      : undefined,
    q.type ? eq(auditTemplates.type, q.type as 'safety') : undefined,
    like
      ? or(
          ilike(auditTemplates.name, like),
          ilike(users.fullName, like),
          sql`exists (select 1 from ${auditScheduleSites} ss join ${sites} s on s.organization_id = ss.organization_id and s.id = ss.site_id
            where ss.schedule_id = ${auditSchedules.id} and s.name ilike ${like})`,
        )
      : undefined,
  );
  const base = tx
    .select({ s: auditSchedules })
    .from(auditSchedules)
    .innerJoin(
      auditTemplates,
      and(eq(auditTemplates.organizationId, auditSchedules.organizationId), eq(auditTemplates.id, auditSchedules.templateId)),
    )
    .innerJoin(users, and(eq(users.organizationId, auditSchedules.organizationId), eq(users.id, auditSchedules.auditorId)))
    .where(where);
  const [total] = await tx
    .select({ n: count() })
    .from(auditSchedules)
    .innerJoin(
      auditTemplates,
      and(eq(auditTemplates.organizationId, auditSchedules.organizationId), eq(auditTemplates.id, auditSchedules.templateId)),
    )
    .innerJoin(users, and(eq(users.organizationId, auditSchedules.organizationId), eq(users.id, auditSchedules.auditorId)))
    .where(where);
  const rows = await base
    .orderBy(desc(auditSchedules.active), desc(auditSchedules.createdAt), asc(auditSchedules.id))
    .limit(q.per_page)
    .offset((q.page - 1) * q.per_page);
  const limits = await freeLimits(tx);
  return {
    schedules: await scheduleViews(
      tx,
      rows.map((r) => r.s),
    ),
    pagination: pagination(total!.n, q.page, q.per_page),
    limit: limits?.schedules ?? null,
  };
}

/** The checks of a schedule's references: template, sites, area, auditor, auditee, start date. */
async function checkScheduleFields(tx: Tx, v: Partial<AuditScheduleCreate>, siteIds: string[], startCheck: boolean, now: Date) {
  const fields: FieldErrors = {};
  if (v.template_id) {
    const [t] = await tx.select({ active: auditTemplates.active }).from(auditTemplates).where(eq(auditTemplates.id, v.template_id));
    if (!t?.active) fields['template_id'] = 'audits.validation.templateUnknown';
  }
  const found = await sitesByIds(tx, siteIds);
  if (siteIds.some((id) => !found.get(id)?.isActive)) fields['site_ids'] = 'audits.validation.siteUnknown';
  if (v.site_node_id && siteIds.length === 1 && !(await isAreaOf(tx, siteIds[0]!, v.site_node_id)))
    fields['site_node_id'] = 'audits.validation.areaUnknown';
  if (v.site_node_id && siteIds.length !== 1) fields['site_node_id'] = 'audits.validation.areaOneSite';
  if (v.auditor_id && !(await isAuditor(tx, v.auditor_id))) fields['auditor_id'] = 'audits.validation.auditorCannotRun';
  if (v.auditee_id && !(await activeMembers(tx, [v.auditee_id])).has(v.auditee_id)) fields['auditee_id'] = 'audits.validation.userUnknown';
  if (startCheck && v.start_date && [...found.values()].some((s) => v.start_date! < localDateIn(s.timeZone, now)))
    fields['start_date'] = 'audits.validation.startPast';
  refuse(fields);
}

/**
 * The free account keeps a limited number of schedules at work ("audit schedule limit reached"): the
 * active ones that may still make audits (not ended, and a "once" schedule until its audit is made).
 */
async function checkScheduleLimit(tx: Tx) {
  const limits = await freeLimits(tx);
  if (!limits) return;
  const [row] = await tx
    .select({ n: count() })
    .from(auditSchedules)
    .where(
      and(
        eq(auditSchedules.active, true),
        sql`(${auditSchedules.endDate} is null or ${auditSchedules.endDate} >= current_date)`,
        sql`not (${auditSchedules.frequency} = 'once' and exists (select 1 from ${audits} a where a.organization_id = ${auditSchedules.organizationId} and a.schedule_id = ${auditSchedules.id}))`,
      ),
    );
  refuseOverLimit(row!.n, limits.schedules, 'schedules');
}

/** POST /api/audit_schedules: the schedule, and at once the audits it makes due already (today's). */
export async function createSchedule(tx: Tx, deps: AuditsDeps, actor: Principal, body: AuditScheduleCreate, now = new Date()) {
  await checkScheduleLimit(tx);
  await checkScheduleFields(tx, body, body.site_ids, true, now);
  const [s] = await tx
    .insert(auditSchedules)
    .values({
      templateId: body.template_id,
      siteNodeId: body.site_node_id,
      auditorId: body.auditor_id,
      auditeeId: body.auditee_id,
      frequency: body.frequency,
      startDate: body.start_date,
      endDate: body.end_date,
      createdBy: actor.userId,
    })
    .returning();
  await tx.insert(auditScheduleSites).values(body.site_ids.map((siteId) => ({ scheduleId: s!.id, siteId })));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_schedule_created',
    entity: SCHEDULE_ENTITY,
    entityId: s!.id,
    changes: body,
  });
  const made = await makeDueAudits(tx, deps, [s!.id], now);
  return {
    id: s!.id,
    afterCommit: async () => {
      for (const id of made.ids) announce(deps, actor.organizationId, id, 'created');
      if (made.mail.length) await dispatchTemplatedMail(deps, made.mail);
    },
  };
}

const FIXED_ONCE_USED = ['template_id', 'site_ids', 'frequency', 'start_date'] as const;

/**
 * PATCH /api/audit_schedules/{id}. Once it has made audits, its template, sites, frequency and start
 * stay; a new auditor, auditee or area also goes to its audits not started yet (the new auditor is told).
 */
export async function updateSchedule(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  body: AuditScheduleUpdate,
  now = new Date(),
): Promise<AfterCommit> {
  const s = await loadSchedule(tx, id, true);
  const currentSites = (
    await tx.select({ id: auditScheduleSites.siteId }).from(auditScheduleSites).where(eq(auditScheduleSites.scheduleId, id))
  ).map((r) => r.id);
  const [used] = await tx.select({ n: count() }).from(audits).where(eq(audits.scheduleId, id));
  const changes = FIXED_ONCE_USED.filter((k) => body[k] !== undefined);
  if (used!.n > 0 && changes.length > 0) throw new AppError('conflict', { messageKey: 'audits.validation.scheduleInUse' });
  const siteIds = body.site_ids ?? currentSites;
  const end = body.end_date === undefined ? s.endDate : body.end_date;
  const start = body.start_date ?? s.startDate;
  if (end !== null && end < start) refuse({ end_date: 'audits.validation.endBeforeStart' });
  const nodeId = body.site_node_id === undefined ? s.siteNodeId : body.site_node_id;
  await checkScheduleFields(tx, { ...body, site_node_id: nodeId }, siteIds, body.start_date !== undefined, now);
  if (body.active === true && !s.active) await checkScheduleLimit(tx);
  await tx
    .update(auditSchedules)
    .set({
      templateId: body.template_id ?? s.templateId,
      siteNodeId: nodeId,
      auditorId: body.auditor_id ?? s.auditorId,
      auditeeId: body.auditee_id === undefined ? s.auditeeId : body.auditee_id,
      frequency: body.frequency ?? s.frequency,
      startDate: start,
      endDate: end,
      active: body.active ?? s.active,
      updatedAt: now,
    })
    .where(eq(auditSchedules.id, id));
  if (body.site_ids) {
    await tx.delete(auditScheduleSites).where(eq(auditScheduleSites.scheduleId, id));
    await tx.insert(auditScheduleSites).values(body.site_ids.map((siteId) => ({ scheduleId: id, siteId })));
  }
  // Its audits not started follow the new people and area.
  const follow = {
    ...(body.auditor_id ? { auditorId: body.auditor_id } : {}),
    ...(body.auditee_id !== undefined ? { auditeeId: body.auditee_id } : {}),
    ...(body.site_node_id !== undefined ? { siteNodeId: body.site_node_id } : {}),
  };
  const mail: QueuedTemplatedMail[] = [];
  const moved: string[] = [];
  if (Object.keys(follow).length > 0) {
    const unstarted = await tx
      .update(audits)
      .set({ ...follow, updatedAt: now })
      .where(and(eq(audits.scheduleId, id), isNull(audits.startedAt), inArray(audits.status, ['scheduled', 'overdue'])))
      .returning();
    for (const a of unstarted) {
      moved.push(a.id);
      if (body.auditor_id && body.auditor_id !== s.auditorId && body.auditor_id !== actor.userId) {
        const m = await tellScheduled(tx, deps, a);
        if (m) mail.push(m);
      }
    }
  }
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_schedule_updated',
    entity: SCHEDULE_ENTITY,
    entityId: id,
    changes: body,
  });
  const made = await makeDueAudits(tx, deps, [id], now);
  return async () => {
    for (const a of [...moved, ...made.ids]) announce(deps, actor.organizationId, a);
    if (mail.length || made.mail.length) await dispatchTemplatedMail(deps, [...mail, ...made.mail]);
  };
}

/** DELETE /api/audit_schedules/{id}: with its audits not started yet; started ones stay (without their schedule). */
export async function deleteSchedule(tx: Tx, deps: AuditsDeps, actor: Principal, id: string): Promise<AfterCommit> {
  await loadSchedule(tx, id, true);
  const gone = await tx
    .delete(audits)
    .where(and(eq(audits.scheduleId, id), isNull(audits.startedAt), inArray(audits.status, ['scheduled', 'overdue'])))
    .returning({ id: audits.id });
  await tx.delete(auditSchedules).where(eq(auditSchedules.id, id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_schedule_deleted',
    entity: SCHEDULE_ENTITY,
    entityId: id,
    changes: { audits_removed: gone.map((g) => g.id) },
  });
  return async () => {
    for (const g of gone) announce(deps, actor.organizationId, g.id, 'removed');
  };
}
