import { pageWindow, type Worker, type WorkerCreate, type WorkerListQuery, type WorkerUpdate } from '@bulwark/domain';
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { files } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { searchPattern } from '../../platform/http/list.js';
import { isUnlinked } from '../../platform/storage/links.js';
import { permits, permitWorkers, workProfiles } from './tables.js';

export const WORKER_ENTITY = 'WorkProfile';
type Row = typeof workProfiles.$inferSelect;

/**
 * When each worker was last named on a permit (any requester). The outer row is named in full:
 * Drizzle writes a one-table select's columns bare, which inside the subquery would name its own.
 */
export const lastUsed = sql<Date | null>`(select max(pw.created_at) from ${permitWorkers} pw
  where pw.organization_id = work_profiles.organization_id and pw.worker_id = work_profiles.id)`;

export function workerOf(r: Row, used: Date | string | null): Worker {
  return {
    id: r.id,
    name: r.name,
    photo: r.photoFileId ? { id: r.photoFileId } : null,
    age: r.age,
    phone: r.phone,
    id_number: r.idNumber,
    gender: r.gender,
    active: r.active,
    last_used_at: used ? new Date(used).toISOString() : null,
  };
}

function matching(value: string | undefined): SQL | undefined {
  if (!value) return undefined;
  const p = searchPattern(value);
  return or(ilike(workProfiles.name, p), ilike(workProfiles.phone, p), ilike(workProfiles.idNumber, p));
}

/**
 * GET /api/v1/work_profile/find_recent_workers: active workers matching the value, those this requester
 * named last first, then those anyone named last, then by name.
 */
export async function recentWorkers(tx: Tx, p: Principal, q: { value?: string | undefined; limit: number }): Promise<Worker[]> {
  const mine = sql<Date | null>`(select max(pw.created_at) from ${permitWorkers} pw join ${permits} pm
    on pm.organization_id = pw.organization_id and pm.id = pw.permit_id
    where pw.organization_id = work_profiles.organization_id and pw.worker_id = work_profiles.id and pm.requester_id = ${p.userId})`;
  const rows = await tx
    .select({ w: workProfiles, used: lastUsed, mine })
    .from(workProfiles)
    .where(and(eq(workProfiles.active, true), matching(q.value)))
    .orderBy(sql`${mine} desc nulls last`, sql`${lastUsed} desc nulls last`, asc(sql`lower(${workProfiles.name})`), asc(workProfiles.id))
    .limit(q.limit);
  return rows.map((r) => workerOf(r.w, r.used));
}

/** The WHERE of the settings list and its export. */
export function workerWhere(q: Pick<WorkerListQuery, 'status' | 'search'>): SQL | undefined {
  return and(q.status === 'all' ? undefined : eq(workProfiles.active, q.status === 'active'), matching(q.search));
}

/** GET /api/work_profiles: a page of the settings list, by name (the export streams them all: settings-export.ts). */
export async function listWorkers(tx: Tx, q: WorkerListQuery) {
  const where = workerWhere(q);
  const [total] = await tx.select({ n: count() }).from(workProfiles).where(where);
  const { limit, offset } = pageWindow(q);
  const rows = await tx
    .select({ w: workProfiles, used: lastUsed })
    .from(workProfiles)
    .where(where)
    .orderBy(asc(sql`lower(${workProfiles.name})`), asc(workProfiles.id))
    .limit(limit)
    .offset(offset);
  return { workers: rows.map((r) => workerOf(r.w, r.used)), total: Number(total?.n ?? 0) };
}

/** A photo this person uploaded (purpose photo) that nothing links yet, or the worker's own. */
async function checkPhoto(tx: Tx, p: Principal, photoId: string | null, current: string | null): Promise<void> {
  if (!photoId || photoId === current) return;
  const [f] = await tx
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.id, photoId), eq(files.purpose, 'photo'), eq(files.uploadedBy, p.userId), isUnlinked()));
  if (!f) throw new AppError('validation_failed', { fields: { photo_id: 'permits.validation.attachmentUnknown' } });
}

export async function createWorker(tx: Tx, p: Principal, body: WorkerCreate): Promise<Worker> {
  await checkPhoto(tx, p, body.photo_id, null);
  const [row] = await tx
    .insert(workProfiles)
    .values({
      name: body.name,
      photoFileId: body.photo_id,
      age: body.age,
      phone: body.phone,
      idNumber: body.id_number,
      gender: body.gender,
      createdBy: p.userId,
    })
    .returning();
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'work_profile_created',
    entity: WORKER_ENTITY,
    entityId: row!.id,
    changes: { name: body.name },
  });
  return workerOf(row!, null);
}

/** PATCH /api/work_profiles/{id}; a replaced photo is removed (its bytes after the commit). */
export async function updateWorker(
  tx: Tx,
  deps: { storage: { remove: (tx: Tx, id: string) => Promise<{ purge: () => Promise<void> } | null> } },
  p: Principal,
  id: string,
  body: WorkerUpdate,
): Promise<{ worker: Worker; purge: (() => Promise<void>) | null }> {
  const [before] = await tx.select().from(workProfiles).where(eq(workProfiles.id, id)).for('update');
  if (!before) throw new AppError('not_found');
  if (body.photo_id !== undefined) await checkPhoto(tx, p, body.photo_id, before.photoFileId);
  const [row] = await tx
    .update(workProfiles)
    .set({
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.photo_id !== undefined ? { photoFileId: body.photo_id } : {}),
      ...(body.age !== undefined ? { age: body.age } : {}),
      ...(body.phone !== undefined ? { phone: body.phone } : {}),
      ...(body.id_number !== undefined ? { idNumber: body.id_number } : {}),
      ...(body.gender !== undefined ? { gender: body.gender } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
      updatedAt: new Date(),
    })
    .where(eq(workProfiles.id, id))
    .returning();
  const replaced = body.photo_id !== undefined && before.photoFileId && before.photoFileId !== body.photo_id;
  const removed = replaced ? await deps.storage.remove(tx, before.photoFileId!) : null;
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'work_profile_updated',
    entity: WORKER_ENTITY,
    entityId: id,
    changes: { ...body },
  });
  const [used] = await tx.select({ used: lastUsed }).from(workProfiles).where(eq(workProfiles.id, id));
  return { worker: workerOf(row!, used?.used ?? null), purge: removed?.purge ?? null };
}

/** Active workers among `ids`, by id (a permit's workers). */
export async function activeWorkers(tx: Tx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: workProfiles.id })
    .from(workProfiles)
    .where(and(inArray(workProfiles.id, [...ids]), eq(workProfiles.active, true)));
  return new Set(rows.map((r) => r.id));
}
