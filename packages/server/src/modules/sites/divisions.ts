/** Divisions, departments and units of a site: the tree, its changes, and the full names pickers show. */
import { siteFullName, type SiteFullName, type SiteLevel, type SiteNodeResponse, type SiteUserSummary } from '@bulwark/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { checkUsers, pgError, siteRow, summary, type Actor } from './common.js';
import { selectSites, toSiteResponse } from './sites.js';
import { siteNodes, sites } from './tables.js';

type NodeRow = typeof siteNodes.$inferSelect;

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

/* Pickers and organisation data */

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
