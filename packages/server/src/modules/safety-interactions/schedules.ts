import { siLocalDateTime, siScheduleStatus, type SiSchedule, type SiScheduleResponse, type SiScheduleStatus } from '@bulwark/domain';
import { and, asc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { activeMembers } from './service.js';
import { siteRefs } from './sites.js';
import { safetyInteractions, siSchedules } from './tables.js';

const V = 'safetyInteractions.validation';
type Row = typeof siSchedules.$inferSelect;

export type ScheduleFilter = { from?: string; to?: string; site_id?: string; observer_id?: string; status?: SiScheduleStatus };

/** The plans as the screens show them, each with its computed status and the interaction that fulfilled it. */
async function toResponses(tx: Tx, rows: Row[], now: Date): Promise<SiScheduleResponse[]> {
  if (rows.length === 0) return [];
  const sites = await siteRefs(
    tx,
    rows.map((r) => r.siteId),
  );
  const names = new Map(
    (
      await tx
        .select({ id: users.id, fullName: users.fullName })
        .from(users)
        .where(inArray(users.id, [...new Set(rows.map((r) => r.observerId))]))
    ).map((u) => [u.id, u.fullName]),
  );
  // Only a completed interaction makes a plan done; a draft against it is work in progress.
  const fulfilled = await tx
    .select({
      scheduleId: safetyInteractions.scheduleId,
      id: safetyInteractions.id,
      serial: safetyInteractions.serial,
      status: safetyInteractions.status,
    })
    .from(safetyInteractions)
    .where(
      inArray(
        safetyInteractions.scheduleId,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((r) => {
    const site = sites.get(r.siteId)!;
    const found = fulfilled.find((f) => f.scheduleId === r.id);
    const today = siLocalDateTime(site.time_zone, now).slice(0, 10);
    return {
      id: r.id,
      observer: names.has(r.observerId) ? { id: r.observerId, full_name: names.get(r.observerId)! } : null,
      site,
      planned_date: r.plannedDate,
      note: r.note,
      status: siScheduleStatus({ planned_date: r.plannedDate, done: found?.status === 'completed' }, today),
      interaction: found ? { id: found.id, serial: found.serial } : null,
    };
  });
}

function where(f: ScheduleFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.from) parts.push(gte(siSchedules.plannedDate, f.from));
  if (f.to) parts.push(lte(siSchedules.plannedDate, f.to));
  if (f.site_id) parts.push(eq(siSchedules.siteId, f.site_id));
  if (f.observer_id) parts.push(eq(siSchedules.observerId, f.observer_id));
  return parts.length > 0 ? and(...parts) : undefined;
}

/** Plans of a period (at most 2,000), by date; the status filter applies to the computed status. */
export async function listSchedules(tx: Tx, f: ScheduleFilter, now = new Date()): Promise<SiScheduleResponse[]> {
  const rows = await tx.select().from(siSchedules).where(where(f)).orderBy(asc(siSchedules.plannedDate), asc(siSchedules.id)).limit(2000);
  const all = await toResponses(tx, rows, now);
  return f.status ? all.filter((s) => s.status === f.status) : all;
}

export async function getSchedule(tx: Tx, id: string, now = new Date()): Promise<SiScheduleResponse> {
  const [row] = await tx.select().from(siSchedules).where(eq(siSchedules.id, id));
  if (!row) throw new AppError('not_found');
  return (await toResponses(tx, [row], now))[0]!;
}

/** An active site, an active observer, and a date not before today at the site (when it is new or moved). */
async function check(tx: Tx, v: SiSchedule, now: Date, dateChanged: boolean): Promise<void> {
  const fields: Record<string, string> = {};
  const [site] = (await siteRefs(tx, [v.site_id], true)).values();
  if (!site) fields['site_id'] = `${V}.siteUnknown`;
  if (!(await activeMembers(tx, [v.observer_id])).has(v.observer_id)) fields['observer_id'] = `${V}.userUnknown`;
  if (site && dateChanged && v.planned_date < siLocalDateTime(site.time_zone, now).slice(0, 10))
    fields['planned_date'] = `${V}.plannedPast`;
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
}

export async function createSchedule(tx: Tx, p: Principal, v: SiSchedule, now = new Date()): Promise<SiScheduleResponse> {
  await check(tx, v, now, true);
  const [row] = await tx
    .insert(siSchedules)
    .values({
      observerId: v.observer_id,
      siteId: v.site_id,
      plannedDate: v.planned_date,
      note: v.note,
      createdBy: p.userId,
    })
    .returning({ id: siSchedules.id });
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'create',
    entity: 'SafetyInteractionSchedule',
    entityId: row!.id,
    changes: { ...v },
  });
  return getSchedule(tx, row!.id, now);
}

export async function updateSchedule(tx: Tx, p: Principal, id: string, v: SiSchedule, now = new Date()): Promise<SiScheduleResponse> {
  const [current] = await tx.select().from(siSchedules).where(eq(siSchedules.id, id)).for('update');
  if (!current) throw new AppError('not_found');
  await check(tx, v, now, v.planned_date !== current.plannedDate);
  // A plan already fulfilled keeps its site: the interaction recorded against it is at that site.
  if (v.site_id !== current.siteId) {
    const [taken] = await tx.select({ id: safetyInteractions.id }).from(safetyInteractions).where(eq(safetyInteractions.scheduleId, id));
    if (taken) throw new AppError('validation_failed', { fields: { site_id: `${V}.scheduleOtherSite` } });
  }
  await tx
    .update(siSchedules)
    .set({ observerId: v.observer_id, siteId: v.site_id, plannedDate: v.planned_date, note: v.note, updatedAt: now })
    .where(eq(siSchedules.id, id));
  const before: Record<string, unknown> = {
    observer_id: current.observerId,
    site_id: current.siteId,
    planned_date: current.plannedDate,
    note: current.note,
  };
  const changes = Object.fromEntries(
    Object.entries(v)
      .filter(([k, val]) => before[k] !== val)
      .map(([k, val]) => [k, { from: before[k], to: val }]),
  );
  await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'SafetyInteractionSchedule', entityId: id, changes });
  return getSchedule(tx, id, now);
}

/** Removes a plan; an interaction recorded against it stays, no longer tied to a plan. */
export async function deleteSchedule(tx: Tx, p: Principal, id: string): Promise<void> {
  const [gone] = await tx.delete(siSchedules).where(eq(siSchedules.id, id)).returning();
  if (!gone) throw new AppError('not_found');
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'delete',
    entity: 'SafetyInteractionSchedule',
    entityId: id,
    changes: { observer_id: gone.observerId, site_id: gone.siteId, planned_date: gone.plannedDate },
  });
}

/** Plans of a period with their computed status, for the summary and the dashboard. */
export async function scheduleTallies(tx: Tx, f: ScheduleFilter, now = new Date()) {
  const all = await listSchedules(tx, f, now);
  return {
    planned: all.length,
    done: all.filter((s) => s.status === 'done').length,
    missed: all.filter((s) => s.status === 'missed').length,
  };
}

/** The next plans not yet done, from today on (the dashboard). */
export async function upcomingSchedules(tx: Tx, today: string, limit = 5, now = new Date()): Promise<SiScheduleResponse[]> {
  const rows = await tx
    .select()
    .from(siSchedules)
    .where(
      and(
        gte(siSchedules.plannedDate, today),
        sql`not exists (select 1 from safety_interactions i where i.schedule_id = ${siSchedules.id} and i.status = 'completed')`,
      ),
    )
    .orderBy(asc(siSchedules.plannedDate), asc(siSchedules.id))
    .limit(limit * 4);
  return (await toResponses(tx, rows, now)).filter((s) => s.status === 'planned').slice(0, limit);
}
