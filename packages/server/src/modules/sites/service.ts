import {
  MANPOWER_DEFAULT,
  manpowerYear,
  normalizeSitePhone,
  siteFullName,
  siteSchema,
  type ManpowerResponse,
  type SiteFullName,
  type SiteLevel,
  type SiteNodeResponse,
  type SiteResponse,
  type SiteUserSummary,
  type SiteValues,
} from '@bulwark/domain';
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { siteManpower, siteNodes, sites, userSites } from './tables.js';

type SiteRow = typeof sites.$inferSelect;
type NodeRow = typeof siteNodes.$inferSelect;
type Actor = { userId: string };

const headOfSafety = alias(users, 'head_of_safety');
const headOfSite = alias(users, 'head_of_site');

/* ---------------------------------------------------------------- helpers */

/** The PostgreSQL error under a driver or ORM wrapper: code and constraint. */
function pgError(err: unknown): { code?: string; constraint?: string } {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i += 1) {
    const rec = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof rec.code === 'string')
      return { code: rec.code, constraint: typeof rec.constraint === 'string' ? rec.constraint : undefined };
    e = rec.cause;
  }
  return {};
}

/** Zod problems of a schema as field -> i18n key, the shape AppError carries. */
function fieldsOf(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'body');
    fields[field] ??= issue.message;
  }
  return fields;
}

function summary(u: { id: string | null; fullName: string | null; email: string | null } | null): SiteUserSummary | null {
  if (!u || !u.id) return null;
  return { id: u.id, full_name: u.fullName ?? '', email: u.email ?? '' };
}

/** Refuses user ids that are not active users of this organisation (row-level security hides the others). */
async function checkUsers(tx: Tx, refs: Record<string, string | null | undefined>): Promise<void> {
  const ids = [...new Set(Object.values(refs).filter((v): v is string => !!v))];
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)));
  const ok = new Set(found.map((r) => r.id));
  const fields: Record<string, string> = {};
  for (const [field, value] of Object.entries(refs)) {
    if (value && !ok.has(value)) fields[field] = 'sites.validation.userUnknown';
  }
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
}

/* ---------------------------------------------------------------- sites */

const siteSelection = {
  site: sites,
  safety: { id: headOfSafety.id, fullName: headOfSafety.fullName, email: headOfSafety.email },
  head: { id: headOfSite.id, fullName: headOfSite.fullName, email: headOfSite.email },
};

function toSiteResponse(r: {
  site: SiteRow;
  safety: { id: string | null; fullName: string | null; email: string | null } | null;
  head: { id: string | null; fullName: string | null; email: string | null } | null;
}): SiteResponse {
  const s = r.site;
  return {
    id: s.id,
    name: s.name,
    short_name: s.shortName,
    site_code: s.siteCode,
    time_zone: s.timeZone,
    head_of_safety: summary(r.safety),
    head_of_site: summary(r.head),
    emergency_phone: s.emergencyPhone,
    emergency_email: s.emergencyEmail,
    address: s.address,
    city: s.city,
    state: s.state,
    country: s.country,
    zip: s.zip,
    latitude: s.latitude,
    longitude: s.longitude,
    is_active: s.isActive,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

function selectSites(tx: Tx) {
  return tx
    .select(siteSelection)
    .from(sites)
    .leftJoin(headOfSafety, and(eq(headOfSafety.organizationId, sites.organizationId), eq(headOfSafety.id, sites.headOfSafetyId)))
    .leftJoin(headOfSite, and(eq(headOfSite.organizationId, sites.organizationId), eq(headOfSite.id, sites.headOfSiteId)));
}

export type SiteListFilter = { search?: string; active: 'all' | 'active' | 'inactive' };

function listWhere(f: SiteListFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.active === 'active') parts.push(eq(sites.isActive, true));
  if (f.active === 'inactive') parts.push(eq(sites.isActive, false));
  if (f.search) {
    const p = searchPattern(f.search);
    parts.push(or(ilike(sites.name, p), ilike(sites.shortName, p), ilike(sites.siteCode, p), ilike(sites.city, p), ilike(sites.state, p))!);
  }
  return parts.length > 0 ? and(...parts) : undefined;
}

/** One page of the organisation's sites, by name. */
export async function listSites(tx: Tx, f: SiteListFilter & { page: number; per_page: number }) {
  const where = listWhere(f);
  const { limit, offset } = pageWindow(f);
  const rows = await selectSites(tx)
    .where(where)
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(sites).where(where);
  return { sites: rows.map(toSiteResponse), total: Number(total?.n ?? 0) };
}

/** Every site matching the filter (the Excel export), capped so one request stays bounded. */
export async function allSites(tx: Tx, f: SiteListFilter, cap = 10_000): Promise<SiteResponse[]> {
  const rows = await selectSites(tx)
    .where(listWhere(f))
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id))
    .limit(cap);
  return rows.map(toSiteResponse);
}

export async function getSite(tx: Tx, id: string): Promise<SiteResponse> {
  const [row] = await selectSites(tx).where(eq(sites.id, id));
  if (!row) throw new AppError('not_found');
  return toSiteResponse(row);
}

async function siteRow(tx: Tx, id: string, lock = false): Promise<SiteRow> {
  const q = tx.select().from(sites).where(eq(sites.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

async function checkUnique(tx: Tx, v: { name: string; site_code: string | null }, exceptId?: string) {
  const fields: Record<string, string> = {};
  const notSelf = exceptId ? sql` and ${sites.id} <> ${exceptId}` : sql``;
  const [byName] = await tx
    .select({ id: sites.id })
    .from(sites)
    .where(sql`lower(${sites.name}) = lower(${v.name})${notSelf}`);
  if (byName) fields['name'] = 'sites.validation.nameTaken';
  if (v.site_code) {
    const [byCode] = await tx
      .select({ id: sites.id })
      .from(sites)
      .where(sql`lower(${sites.siteCode}) = lower(${v.site_code})${notSelf}`);
    if (byCode) fields['site_code'] = 'sites.validation.codeTaken';
  }
  if (Object.keys(fields).length > 0) throw new AppError('conflict', { fields });
}

/** A write that lost a race to the unique indexes is the same conflict the pre-check reports. */
async function guardUnique<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23505' && constraint === 'sites_name_unique')
      throw new AppError('conflict', { fields: { name: 'sites.validation.nameTaken' } });
    if (code === '23505' && constraint === 'sites_code_unique')
      throw new AppError('conflict', { fields: { site_code: 'sites.validation.codeTaken' } });
    throw err;
  }
}

function columnsOf(v: SiteValues, phone: string) {
  return {
    name: v.name,
    shortName: v.short_name,
    siteCode: v.site_code,
    timeZone: v.time_zone,
    headOfSafetyId: v.head_of_safety_id,
    headOfSiteId: v.head_of_site_id,
    emergencyPhone: phone,
    emergencyEmail: v.emergency_email,
    address: v.address,
    city: v.city,
    state: v.state,
    country: v.country,
    zip: v.zip,
    latitude: v.latitude,
    longitude: v.longitude,
  };
}

export async function createSite(tx: Tx, actor: Actor, v: SiteValues): Promise<SiteResponse> {
  await checkUsers(tx, { head_of_safety_id: v.head_of_safety_id, head_of_site_id: v.head_of_site_id });
  await checkUnique(tx, v);
  const phone = normalizeSitePhone(v.emergency_phone, v.country);
  if (!phone) throw new AppError('validation_failed', { fields: { emergency_phone: 'sites.validation.phone' } });
  const [row] = await guardUnique(() =>
    tx
      .insert(sites)
      .values({ ...columnsOf(v, phone), isActive: v.is_active ?? true, createdBy: actor.userId })
      .returning({ id: sites.id }),
  );
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'create',
    entity: 'Site',
    entityId: row!.id,
    changes: { ...v, emergency_phone: phone },
  });
  return getSite(tx, row!.id);
}

/** The stored site as the form would send it, so a partial change can be checked as a whole. */
function inputOf(s: SiteRow): Record<string, unknown> {
  return {
    name: s.name,
    short_name: s.shortName,
    site_code: s.siteCode,
    time_zone: s.timeZone,
    head_of_safety_id: s.headOfSafetyId ?? undefined,
    head_of_site_id: s.headOfSiteId,
    emergency_phone: s.emergencyPhone,
    emergency_email: s.emergencyEmail,
    address: s.address,
    city: s.city,
    state: s.state,
    country: s.country,
    zip: s.zip,
    latitude: s.latitude,
    longitude: s.longitude,
    is_active: s.isActive,
  };
}

/**
 * Changes a site. The change is merged into the stored site and the whole is checked again, so a new
 * country re-checks the old phone. Only `is_active` alone (deactivate/activate) skips the check: a site
 * whose head of safety has left must still be deactivatable.
 */
export async function updateSite(tx: Tx, actor: Actor, id: string, patch: Record<string, unknown>): Promise<SiteResponse> {
  const current = await siteRow(tx, id, true);
  const keys = Object.keys(patch).filter((k) => patch[k] !== undefined);
  if (keys.length === 1 && keys[0] === 'is_active') {
    const isActive = patch['is_active'] === true;
    if (isActive !== current.isActive) {
      await tx.update(sites).set({ isActive, updatedAt: new Date() }).where(eq(sites.id, id));
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: isActive ? 'activate' : 'deactivate',
        entity: 'Site',
        entityId: id,
        changes: { is_active: isActive },
      });
    }
    return getSite(tx, id);
  }
  const before = inputOf(current);
  const parsed = siteSchema.safeParse({ ...before, ...Object.fromEntries(keys.map((k) => [k, patch[k]])) });
  if (!parsed.success) throw new AppError('validation_failed', { fields: fieldsOf(parsed.error.issues) });
  const v = parsed.data;
  const changedUsers: Record<string, string | null> = {};
  if (v.head_of_safety_id !== current.headOfSafetyId) changedUsers['head_of_safety_id'] = v.head_of_safety_id;
  if (v.head_of_site_id !== current.headOfSiteId) changedUsers['head_of_site_id'] = v.head_of_site_id;
  await checkUsers(tx, changedUsers);
  await checkUnique(tx, v, id);
  const phone = normalizeSitePhone(v.emergency_phone, v.country);
  if (!phone) throw new AppError('validation_failed', { fields: { emergency_phone: 'sites.validation.phone' } });
  const next = { ...columnsOf(v, phone), isActive: v.is_active ?? current.isActive };
  await guardUnique(() =>
    tx
      .update(sites)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(sites.id, id)),
  );
  const after: Record<string, unknown> = { ...v, emergency_phone: phone, is_active: next.isActive };
  const changes = Object.fromEntries(
    Object.entries(after)
      .filter(([k, val]) => before[k] !== val)
      .map(([k, val]) => [k, { from: before[k] ?? null, to: val }]),
  );
  await recordAudit(tx, { actorUserId: actor.userId, action: 'update', entity: 'Site', entityId: id, changes });
  return getSite(tx, id);
}

/** Heads of safety of the organisation's sites (GET /api/sites/all_site_head_of_safety). */
export async function headsOfSafety(tx: Tx, activeOnly = true) {
  const rows = await selectSites(tx)
    .where(activeOnly ? eq(sites.isActive, true) : undefined)
    .orderBy(asc(sql`lower(${sites.name})`));
  return rows
    .filter((r) => r.safety?.id)
    .map((r) => ({
      site_id: r.site.id,
      site_name: r.site.name,
      user: summary(r.safety)!,
    }));
}

/** Active users of the organisation for the head-of-safety and head-of-site pickers. */
export async function userOptions(tx: Tx, search: string | undefined, limit = 50): Promise<SiteUserSummary[]> {
  const p = search ? searchPattern(search) : null;
  const rows = await tx
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.status, 'Active'),
        eq(users.isPlatformAdmin, false),
        p ? or(ilike(users.fullName, p), ilike(users.email, p)) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id))
    .limit(limit);
  return rows.map((u) => ({ id: u.id, full_name: u.fullName, email: u.email }));
}

/* ---------------------------------------------------------------- divisions, departments, units */

const CHILD_LEVEL: Record<SiteLevel, SiteLevel | null> = { division: 'department', department: 'unit', unit: null };

type NodeWithPeople = NodeRow & { head: SiteUserSummary | null; supervisor: SiteUserSummary | null };

async function nodesOf(tx: Tx, siteIds: string[]): Promise<NodeWithPeople[]> {
  if (siteIds.length === 0) return [];
  const head = alias(users, 'node_head');
  const sup = alias(users, 'node_supervisor');
  const rows = await tx
    .select({
      node: siteNodes,
      head: { id: head.id, fullName: head.fullName, email: head.email },
      sup: { id: sup.id, fullName: sup.fullName, email: sup.email },
    })
    .from(siteNodes)
    .leftJoin(head, and(eq(head.organizationId, siteNodes.organizationId), eq(head.id, siteNodes.headId)))
    .leftJoin(sup, and(eq(sup.organizationId, siteNodes.organizationId), eq(sup.id, siteNodes.supervisorId)))
    .where(inArray(siteNodes.siteId, siteIds))
    .orderBy(asc(sql`lower(${siteNodes.name})`), asc(siteNodes.id));
  return rows.map((r) => ({ ...r.node, head: summary(r.head), supervisor: summary(r.sup) }));
}

function buildTree(nodes: NodeWithPeople[]): Map<string, SiteNodeResponse[]> {
  const byId = new Map<string, SiteNodeResponse>();
  for (const n of nodes) {
    byId.set(n.id, { id: n.id, level: n.level, parent_id: n.parentId, name: n.name, head: n.head, supervisor: n.supervisor, children: [] });
  }
  const roots = new Map<string, SiteNodeResponse[]>();
  for (const n of nodes) {
    const item = byId.get(n.id)!;
    if (n.parentId) byId.get(n.parentId)?.children.push(item);
    else roots.set(n.siteId, [...(roots.get(n.siteId) ?? []), item]);
  }
  return roots;
}

export async function siteTree(tx: Tx, siteId: string) {
  const site = await siteRow(tx, siteId);
  const roots = buildTree(await nodesOf(tx, [siteId]));
  return { site: { id: site.id, name: site.name, is_active: site.isActive }, divisions: roots.get(siteId) ?? [] };
}

async function nodeRow(tx: Tx, siteId: string, nodeId: string, lock = false): Promise<NodeRow> {
  const q = tx
    .select()
    .from(siteNodes)
    .where(and(eq(siteNodes.siteId, siteId), eq(siteNodes.id, nodeId)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

async function guardNodeName<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23505' && constraint === 'site_nodes_name_unique')
      throw new AppError('conflict', { fields: { name: 'sites.validation.nodeNameTaken' } });
    throw err;
  }
}

async function checkNodeName(tx: Tx, siteId: string, parentId: string | null, name: string, exceptId?: string) {
  const [same] = await tx
    .select({ id: siteNodes.id })
    .from(siteNodes)
    .where(
      and(
        eq(siteNodes.siteId, siteId),
        parentId ? eq(siteNodes.parentId, parentId) : sql`${siteNodes.parentId} is null`,
        sql`lower(${siteNodes.name}) = lower(${name})`,
        exceptId ? sql`${siteNodes.id} <> ${exceptId}` : undefined,
      ),
    );
  if (same) throw new AppError('conflict', { fields: { name: 'sites.validation.nodeNameTaken' } });
}

export type NodeInput = { name: string; head_id: string | null; supervisor_id: string | null };

/** Adds a division (no parent), a department (under a division) or a unit (under a department). */
export async function createNode(tx: Tx, actor: Actor, siteId: string, input: NodeInput & { parent_id: string | null }) {
  await siteRow(tx, siteId, true);
  let level: SiteLevel = 'division';
  if (input.parent_id) {
    const [parent] = await tx
      .select()
      .from(siteNodes)
      .where(and(eq(siteNodes.siteId, siteId), eq(siteNodes.id, input.parent_id)));
    if (!parent) throw new AppError('validation_failed', { fields: { parent_id: 'sites.validation.parentUnknown' } });
    const child = CHILD_LEVEL[parent.level];
    if (!child) throw new AppError('validation_failed', { fields: { parent_id: 'sites.validation.unitHasNoChildren' } });
    level = child;
  }
  await checkUsers(tx, { head_id: input.head_id, supervisor_id: input.supervisor_id });
  await checkNodeName(tx, siteId, input.parent_id, input.name);
  const [row] = await guardNodeName(() =>
    tx
      .insert(siteNodes)
      .values({
        siteId,
        parentId: input.parent_id,
        level,
        name: input.name,
        headId: input.head_id,
        supervisorId: input.supervisor_id,
      })
      .returning(),
  );
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'create',
    entity: 'SiteNode',
    entityId: row!.id,
    changes: { site_id: siteId, level, ...input },
  });
  return row!;
}

export async function updateNode(tx: Tx, actor: Actor, siteId: string, nodeId: string, input: Partial<NodeInput>) {
  await siteRow(tx, siteId, true);
  const current = await nodeRow(tx, siteId, nodeId, true);
  const changedUsers: Record<string, string | null> = {};
  if (input.head_id !== undefined && input.head_id !== current.headId) changedUsers['head_id'] = input.head_id;
  if (input.supervisor_id !== undefined && input.supervisor_id !== current.supervisorId)
    changedUsers['supervisor_id'] = input.supervisor_id;
  await checkUsers(tx, changedUsers);
  if (input.name !== undefined) await checkNodeName(tx, siteId, current.parentId, input.name, nodeId);
  const set = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.head_id !== undefined ? { headId: input.head_id } : {}),
    ...(input.supervisor_id !== undefined ? { supervisorId: input.supervisor_id } : {}),
  };
  const [row] = await guardNodeName(() =>
    tx
      .update(siteNodes)
      .set({ ...set, updatedAt: new Date() })
      .where(and(eq(siteNodes.siteId, siteId), eq(siteNodes.id, nodeId)))
      .returning(),
  );
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'update',
    entity: 'SiteNode',
    entityId: nodeId,
    changes: { from: { name: current.name, head_id: current.headId, supervisor_id: current.supervisorId }, to: input },
  });
  return row!;
}

/** Deletes a node and everything under it; a node other records still refer to is refused. */
export async function deleteNode(tx: Tx, actor: Actor, siteId: string, nodeId: string) {
  await siteRow(tx, siteId, true);
  const current = await nodeRow(tx, siteId, nodeId, true);
  try {
    // A savepoint: a refusal by another table's foreign key must not poison the transaction.
    await tx.transaction((sp) => sp.delete(siteNodes).where(and(eq(siteNodes.siteId, siteId), eq(siteNodes.id, nodeId))));
  } catch (err) {
    if (pgError(err).code === '23503') throw new AppError('conflict', { messageKey: 'sites.validation.inUse' });
    throw err;
  }
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'delete',
    entity: 'SiteNode',
    entityId: nodeId,
    changes: { name: current.name, level: current.level },
  });
  return current;
}

/* ---------------------------------------------------------------- pickers and organisation data */

/** Every site and every division, department and unit under it, with its full name (pickers). */
export async function siteFullNames(tx: Tx, activeOnly = true): Promise<SiteFullName[]> {
  const siteRows = await tx
    .select({ id: sites.id, name: sites.name })
    .from(sites)
    .where(activeOnly ? eq(sites.isActive, true) : undefined)
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id));
  const nodes = await nodesOf(
    tx,
    siteRows.map((s) => s.id),
  );
  const roots = buildTree(nodes);
  const out: SiteFullName[] = [];
  for (const s of siteRows) {
    out.push({ id: s.id, site_id: s.id, level: 'site', division_id: null, department_id: null, unit_id: null, full_name: s.name });
    for (const d of roots.get(s.id) ?? []) {
      out.push({
        id: d.id,
        site_id: s.id,
        level: 'division',
        division_id: d.id,
        department_id: null,
        unit_id: null,
        full_name: siteFullName([s.name, d.name]),
      });
      for (const dep of d.children) {
        out.push({
          id: dep.id,
          site_id: s.id,
          level: 'department',
          division_id: d.id,
          department_id: dep.id,
          unit_id: null,
          full_name: siteFullName([s.name, d.name, dep.name]),
        });
        for (const u of dep.children) {
          out.push({
            id: u.id,
            site_id: s.id,
            level: 'unit',
            division_id: d.id,
            department_id: dep.id,
            unit_id: u.id,
            full_name: siteFullName([s.name, d.name, dep.name, u.name]),
          });
        }
      }
    }
  }
  return out;
}

/** The organisation's sites, each with its divisions, departments and units. */
export async function siteData(tx: Tx) {
  const rows = await selectSites(tx).orderBy(asc(sql`lower(${sites.name})`), asc(sites.id));
  const roots = buildTree(
    await nodesOf(
      tx,
      rows.map((r) => r.site.id),
    ),
  );
  return rows.map((r) => ({ ...toSiteResponse(r), divisions: roots.get(r.site.id) ?? [] }));
}

/** Active sites of a user: the ones they are assigned to; an admin has them all. */
export async function activeSitesOfUser(tx: Tx, p: { userId: string; isAdmin: boolean }) {
  const base = tx
    .select({ id: sites.id, name: sites.name, short_name: sites.shortName, site_code: sites.siteCode, time_zone: sites.timeZone })
    .from(sites);
  const rows = p.isAdmin
    ? await base.where(eq(sites.isActive, true)).orderBy(asc(sql`lower(${sites.name})`))
    : await base
        .innerJoin(userSites, and(eq(userSites.organizationId, sites.organizationId), eq(userSites.siteId, sites.id)))
        .where(and(eq(sites.isActive, true), eq(userSites.userId, p.userId)))
        .orderBy(asc(sql`lower(${sites.name})`));
  return rows;
}

/* ---------------------------------------------------------------- user-site membership (used by the users module) */

/**
 * Replaces the sites a user belongs to, in the caller's transaction. Every id must be a site of the
 * organisation (row-level security hides the others, so another organisation's id is refused the same
 * way as an unknown one): `validation_failed` on `site_ids` otherwise.
 */
export async function setUserSites(tx: Tx, userId: string, siteIds: readonly string[]): Promise<void> {
  const wanted = [...new Set(siteIds)];
  if (wanted.length > 0) {
    const found = await tx.select({ id: sites.id }).from(sites).where(inArray(sites.id, wanted));
    if (found.length !== wanted.length) throw new AppError('validation_failed', { fields: { site_ids: 'sites.validation.siteUnknown' } });
  }
  await tx.delete(userSites).where(eq(userSites.userId, userId));
  if (wanted.length > 0) await tx.insert(userSites).values(wanted.map((siteId) => ({ userId, siteId })));
}

/** The ids of the sites a user belongs to (active or not), ordered by site name. */
export async function listUserSiteIds(tx: Tx, userId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: sites.id })
    .from(userSites)
    .innerJoin(sites, and(eq(sites.organizationId, userSites.organizationId), eq(sites.id, userSites.siteId)))
    .where(eq(userSites.userId, userId))
    .orderBy(asc(sql`lower(${sites.name})`));
  return rows.map((r) => r.id);
}

/** Ids of the users assigned to any of these sites. */
export async function userIdsAtSites(tx: Tx, siteIds: readonly string[]): Promise<string[]> {
  if (siteIds.length === 0) return [];
  const rows = await tx
    .selectDistinct({ id: userSites.userId })
    .from(userSites)
    .where(inArray(userSites.siteId, [...siteIds]));
  return rows.map((r) => r.id);
}

/* ---------------------------------------------------------------- manpower */

/** The manpower grid of a year: every site, twelve months, the default where nothing was set. */
export async function getManpower(tx: Tx, year: number): Promise<ManpowerResponse> {
  const siteRows = await tx
    .select({ id: sites.id, name: sites.name, isActive: sites.isActive })
    .from(sites)
    .orderBy(sql`${sites.isActive} desc`, asc(sql`lower(${sites.name})`), asc(sites.id));
  const set = await tx.select().from(siteManpower).where(eq(siteManpower.year, year));
  const bySite = new Map<string, Map<number, number>>();
  for (const r of set) {
    const m = bySite.get(r.siteId) ?? new Map<number, number>();
    m.set(r.month, r.total);
    bySite.set(r.siteId, m);
  }
  return {
    year,
    default_total: MANPOWER_DEFAULT,
    sites: siteRows.map((s) => ({ site_id: s.id, name: s.name, is_active: s.isActive, ...manpowerYear(bySite.get(s.id) ?? new Map()) })),
  };
}

/** Sets (or, with null, clears back to the default) monthly totals; all or nothing. */
export async function setManpower(
  tx: Tx,
  actor: Actor,
  input: { year: number; entries: Array<{ site_id: string; month: number; total: number | null }> },
) {
  const siteIds = [...new Set(input.entries.map((e) => e.site_id))];
  const found = await tx.select({ id: sites.id }).from(sites).where(inArray(sites.id, siteIds));
  if (found.length !== siteIds.length) throw new AppError('not_found', { fields: { entries: 'sites.validation.siteUnknown' } });
  for (const e of input.entries) {
    const key = and(eq(siteManpower.siteId, e.site_id), eq(siteManpower.year, input.year), eq(siteManpower.month, e.month));
    if (e.total === null) {
      await tx.delete(siteManpower).where(key);
    } else {
      await tx
        .insert(siteManpower)
        .values({ siteId: e.site_id, year: input.year, month: e.month, total: e.total, updatedBy: actor.userId })
        .onConflictDoUpdate({
          target: [siteManpower.organizationId, siteManpower.siteId, siteManpower.year, siteManpower.month],
          set: { total: e.total, updatedBy: actor.userId, updatedAt: new Date() },
        });
    }
  }
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'update',
    entity: 'SiteManpower',
    changes: { year: input.year, entries: input.entries },
  });
  return getManpower(tx, input.year);
}

/** Total manpower of a site for a month, the default when unset (for frequency rates such as LTIFR). */
export async function siteManpowerFor(tx: Tx, siteId: string, year: number, month: number): Promise<number> {
  const [row] = await tx
    .select({ total: siteManpower.total })
    .from(siteManpower)
    .where(and(eq(siteManpower.siteId, siteId), eq(siteManpower.year, year), eq(siteManpower.month, month)));
  return row?.total ?? MANPOWER_DEFAULT;
}
