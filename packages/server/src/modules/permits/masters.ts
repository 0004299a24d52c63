import { pageWindow, type MasterCreate, type MasterEntry, type MasterKind, type MasterListQuery, type MasterUpdate } from '@bulwark/domain';
import { and, asc, count, eq, ilike, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { searchPattern } from '../../platform/http/list.js';
import { permitMasters } from './tables.js';

export const MASTER_ENTITY = 'PermitMaster';
type Row = typeof permitMasters.$inferSelect;

export function masterEntryOf(r: Row): MasterEntry {
  return {
    id: r.id,
    kind: r.kind,
    name: r.name,
    description: r.description,
    control_level: r.controlLevel,
    active: r.active,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function whereOf(kind: MasterKind, q: Pick<MasterListQuery, 'search' | 'status'>): SQL | undefined {
  return and(
    eq(permitMasters.kind, kind),
    q.status === 'all' ? undefined : eq(permitMasters.active, q.status === 'active'),
    q.search ? ilike(permitMasters.name, searchPattern(q.search)) : undefined,
  );
}

/** A page of one master's entries, by name (the export streams them all: settings-export.ts). */
export async function listMaster(tx: Tx, kind: MasterKind, q: MasterListQuery) {
  const where = whereOf(kind, q);
  const [total] = await tx.select({ n: count() }).from(permitMasters).where(where);
  const { limit, offset } = pageWindow(q);
  const rows = await tx
    .select()
    .from(permitMasters)
    .where(where)
    .orderBy(asc(sql`lower(${permitMasters.name})`), asc(permitMasters.id))
    .limit(limit)
    .offset(offset);
  return { entries: rows.map(masterEntryOf), total: Number(total?.n ?? 0) };
}

/** The active entries of each master (the request form's list questions). */
export async function activeMasters(tx: Tx): Promise<Record<MasterKind, MasterEntry[]>> {
  const rows = await tx
    .select()
    .from(permitMasters)
    .where(eq(permitMasters.active, true))
    .orderBy(asc(sql`lower(${permitMasters.name})`));
  const of = (k: MasterKind) => rows.filter((r) => r.kind === k).map(masterEntryOf);
  return { hierarchy_of_controls: of('hierarchy_of_controls'), activity: of('activity'), equipment: of('equipment'), rescue: of('rescue') };
}

/** Active entries among `ids` of one master, by id (the list questions' answers). */
export async function activeEntries(tx: Tx, kind: MasterKind, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: permitMasters.id, name: permitMasters.name })
    .from(permitMasters)
    .where(and(eq(permitMasters.kind, kind), eq(permitMasters.active, true), inArray(permitMasters.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Names are unique per master, whatever their case. */
async function checkName(tx: Tx, kind: MasterKind, name: string, exceptId: string | null): Promise<boolean> {
  const [taken] = await tx
    .select({ id: permitMasters.id })
    .from(permitMasters)
    .where(
      and(
        eq(permitMasters.kind, kind),
        sql`lower(${permitMasters.name}) = lower(${name})`,
        exceptId ? ne(permitMasters.id, exceptId) : undefined,
      ),
    );
  return !taken;
}

/** A hierarchy-of-controls entry names its level; the other masters have none. */
function levelProblem(kind: MasterKind, level: string | null): string | null {
  if (kind === 'hierarchy_of_controls') return level ? null : 'permits.validation.controlLevel';
  return level ? 'validation.invalid' : null;
}

export async function createMasterEntry(tx: Tx, actor: Principal, kind: MasterKind, body: MasterCreate): Promise<MasterEntry> {
  const fields: Record<string, string> = {};
  const level = levelProblem(kind, body.control_level);
  if (level) fields['control_level'] = level;
  if (!(await checkName(tx, kind, body.name, null))) fields['name'] = 'permits.validation.nameTaken';
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
  const [row] = await tx
    .insert(permitMasters)
    .values({ kind, name: body.name, description: body.description, controlLevel: body.control_level })
    .returning();
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_master_created',
    entity: MASTER_ENTITY,
    entityId: row!.id,
    changes: { kind, name: body.name },
  });
  return masterEntryOf(row!);
}

export async function updateMasterEntry(tx: Tx, actor: Principal, kind: MasterKind, id: string, body: MasterUpdate): Promise<MasterEntry> {
  const [before] = await tx
    .select()
    .from(permitMasters)
    .where(and(eq(permitMasters.id, id), eq(permitMasters.kind, kind)))
    .for('update');
  if (!before) throw new AppError('not_found');
  const fields: Record<string, string> = {};
  const level = levelProblem(kind, body.control_level === undefined ? before.controlLevel : body.control_level);
  if (level) fields['control_level'] = level;
  if (body.name !== undefined && !(await checkName(tx, kind, body.name, id))) fields['name'] = 'permits.validation.nameTaken';
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
  const [row] = await tx
    .update(permitMasters)
    .set({
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.control_level !== undefined ? { controlLevel: body.control_level } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
      updatedAt: new Date(),
    })
    .where(eq(permitMasters.id, id))
    .returning();
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_master_updated',
    entity: MASTER_ENTITY,
    entityId: id,
    changes: { kind, ...body },
  });
  return masterEntryOf(row!);
}

/** Every entry of one master by lower-cased name (the import updates known names). */
export async function entriesByName(tx: Tx, kind: MasterKind): Promise<Map<string, Row>> {
  const rows = await tx.select().from(permitMasters).where(eq(permitMasters.kind, kind));
  return new Map(rows.map((r) => [r.name.toLowerCase(), r]));
}
