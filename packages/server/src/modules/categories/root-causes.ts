import {
  rootCauseAncestors,
  rootCauseDescendants,
  rootCauseIndex,
  rootCauseMoveProblem,
  type RootCauseCreate,
  type RootCauseListQuery,
  type RootCauseNode,
  type RootCauseUpdate,
} from '@bulwark/domain';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { rootCauseSettings } from './tables.js';

/**
 * Root-cause settings (subject 'RC Master'): the why-analysis tree. An organisation holds tens to a few
 * hundred nodes, so each call reads the organisation's whole tree once and works on it in memory;
 * writes take a per-organisation lock so two moves cannot build a cycle between them.
 */
type Row = typeof rootCauseSettings.$inferSelect;
type Node = Row & { parent_id: string | null };
type Tree = ReturnType<typeof rootCauseIndex<Node>>;

const TREE_LOCK = 7_351_050;

async function loadTree(tx: Tx, forWrite: boolean): Promise<Tree> {
  if (forWrite) await tx.execute(sql`select pg_advisory_xact_lock(${TREE_LOCK}, hashtext(app_current_org()::text))`);
  const rows = await tx.select().from(rootCauseSettings);
  return rootCauseIndex(rows.map((r) => ({ ...r, parent_id: r.parentId })));
}

function toNode(n: Node, tree: Tree): RootCauseNode {
  const ancestors = rootCauseAncestors(n.id, tree.byId);
  return {
    id: n.id,
    parent_id: n.parentId,
    name: n.name,
    type_name: (ancestors[0] ?? n).name,
    depth: ancestors.length,
    active: n.active,
    children_count: tree.children.get(n.id)?.length ?? 0,
    created_at: n.createdAt.toISOString(),
    updated_at: n.updatedAt.toISOString(),
  };
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** Depth-first, siblings by name: the order a tree is read in. */
function inTreeOrder(tree: Tree): Node[] {
  const out: Node[] = [];
  const walk = (parent: string | null) => {
    for (const n of [...(tree.children.get(parent) ?? [])].sort(byName)) {
      out.push(n);
      walk(n.id);
    }
  };
  walk(null);
  return out;
}

function findNode(tree: Tree, id: string): Node {
  const node = tree.byId.get(id);
  if (!node) throw new AppError('not_found');
  return node;
}

/** GET /api/root_cause_settings: the tree in reading order; a search keeps the matches and the path to them. */
export async function listRootCauses(tx: Tx, q: RootCauseListQuery) {
  const tree = await loadTree(tx, false);
  let nodes = inTreeOrder(tree).map((n) => toNode(n, tree));
  const typeNames = nodes.filter((n) => n.depth === 0).map((n) => n.name);
  if (q.type_name) {
    const wanted = q.type_name.toLowerCase();
    nodes = nodes.filter((n) => n.type_name.toLowerCase() === wanted);
  }
  if (q.status) nodes = nodes.filter((n) => n.active === (q.status === 'active'));
  if (q.search) {
    const needle = q.search.toLowerCase();
    const keep = new Set<string>();
    for (const n of nodes) {
      if (!n.name.toLowerCase().includes(needle)) continue;
      keep.add(n.id);
      for (const a of rootCauseAncestors(n.id, tree.byId)) keep.add(a.id);
    }
    nodes = nodes.filter((n) => keep.has(n.id));
  }
  return { root_cause_settings: nodes, type_names: typeNames };
}

/** GET /api/root_cause_settings/{id}/root_cause_parent_listing. */
export async function rootCauseParentListing(tx: Tx, id: string) {
  const tree = await loadTree(tx, false);
  const node = findNode(tree, id);
  return {
    root_cause_setting: toNode(node, tree),
    ancestors: rootCauseAncestors(id, tree.byId).map((a) => toNode(a, tree)),
    children: [...(tree.children.get(id) ?? [])].sort(byName).map((c) => toNode(c, tree)),
  };
}

/**
 * GET /api/root_cause_settings/phenomena_root_causes: what an investigation may pick as a root cause,
 * i.e. every active entry below a type with no active entry below it, whose whole path is active.
 */
export async function phenomenaRootCauses(tx: Tx, q: { type_name?: string | undefined }) {
  const tree = await loadTree(tx, false);
  const wanted = q.type_name?.toLowerCase();
  const out = [];
  for (const n of inTreeOrder(tree)) {
    if (!n.active || n.parentId === null) continue;
    if ((tree.children.get(n.id) ?? []).some((c) => c.active)) continue;
    const ancestors = rootCauseAncestors(n.id, tree.byId);
    if (ancestors.some((a) => !a.active)) continue;
    const typeName = ancestors[0]!.name;
    if (wanted && typeName.toLowerCase() !== wanted) continue;
    out.push({ id: n.id, name: n.name, type_name: typeName, path: [...ancestors.map((a) => a.name), n.name] });
  }
  return { phenomena_root_causes: out };
}

function assertNameFree(tree: Tree, parentId: string | null, name: string, exceptId?: string) {
  const clash = (tree.children.get(parentId) ?? []).some((s) => s.id !== exceptId && s.name.toLowerCase() === name.toLowerCase());
  if (clash) throw new AppError('conflict', { fields: { name: 'categories.validation.nameTaken' } });
}

function checkParent(tree: Tree, id: string | null, parentId: string | null): Node | null {
  if (parentId === null) return null;
  const parent = tree.byId.get(parentId);
  if (!parent) throw new AppError('validation_failed', { fields: { parent_id: 'categories.validation.parentMissing' } });
  const problem = rootCauseMoveProblem(id, parentId, tree);
  if (problem) throw new AppError('validation_failed', { fields: { parent_id: `categories.validation.${problem}` } });
  return parent;
}

/** POST /api/root_cause_settings (parent in the body) and POST /api/root_cause_settings/{id} (a child of {id}). */
export async function createRootCause(tx: Tx, p: Principal, body: RootCauseCreate, parentFromPath?: string): Promise<RootCauseNode> {
  const tree = await loadTree(tx, true);
  if (parentFromPath !== undefined) findNode(tree, parentFromPath);
  const parentId = parentFromPath ?? body.parent_id ?? null;
  const parent = checkParent(tree, null, parentId);
  if (parent && !parent.active) throw new AppError('validation_failed', { fields: { parent_id: 'categories.validation.parentInactive' } });
  assertNameFree(tree, parentId, body.name);
  const [row] = await tx.insert(rootCauseSettings).values({ name: body.name, parentId, createdBy: p.userId }).returning();
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'create',
    entity: 'RootCauseSetting',
    entityId: row!.id,
    changes: { name: body.name, parentId },
  });
  const node = { ...row!, parent_id: row!.parentId };
  tree.byId.set(node.id, node);
  tree.children.set(parentId, [...(tree.children.get(parentId) ?? []), node]);
  return toNode(node, tree);
}

/** PATCH /api/root_cause_settings/{id}: rename, move within the tree, deactivate or activate (optionally with everything below). */
export async function updateRootCause(tx: Tx, p: Principal, id: string, body: RootCauseUpdate): Promise<RootCauseNode> {
  const tree = await loadTree(tx, true);
  const node = findNode(tree, id);
  const parentId = body.parent_id === undefined ? node.parentId : body.parent_id;
  const moving = parentId !== node.parentId;
  const parent = moving ? checkParent(tree, id, parentId) : parentId ? (tree.byId.get(parentId) ?? null) : null;
  const name = body.name ?? node.name;
  if (moving || name.toLowerCase() !== node.name.toLowerCase()) assertNameFree(tree, parentId, name, id);

  const active = body.active ?? node.active;
  const below = rootCauseDescendants(id, tree.children);
  if (active && parent && !parent.active && (moving || !node.active)) {
    throw new AppError('validation_failed', { fields: { parent_id: 'categories.validation.parentInactive' } });
  }
  let cascade: string[] = [];
  if (body.active === false && node.active) {
    const activeBelow = below.filter((d) => d.active);
    if (activeBelow.length > 0 && !body.with_children) {
      throw new AppError('conflict', { fields: { active: 'categories.validation.hasActiveChildren' } });
    }
    cascade = activeBelow.map((d) => d.id);
  } else if (body.active === true && body.with_children) {
    cascade = below.filter((d) => !d.active).map((d) => d.id);
  }

  const now = new Date();
  const [row] = await tx
    .update(rootCauseSettings)
    .set({ name, parentId, active, updatedAt: now })
    .where(eq(rootCauseSettings.id, id))
    .returning();
  if (cascade.length > 0) {
    await tx.update(rootCauseSettings).set({ active, updatedAt: now }).where(inArray(rootCauseSettings.id, cascade));
  }
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'update',
    entity: 'RootCauseSetting',
    entityId: id,
    changes: { ...body, ...(cascade.length > 0 ? { alsoChanged: cascade } : {}) },
  });
  const updated = { ...row!, parent_id: row!.parentId };
  // Reflect the change in the in-memory tree for the answer's type name, depth and counts.
  if (moving) {
    tree.children.set(
      node.parentId,
      (tree.children.get(node.parentId) ?? []).filter((c) => c.id !== id),
    );
    tree.children.set(parentId, [...(tree.children.get(parentId) ?? []), updated]);
  }
  tree.byId.set(id, updated);
  return toNode(updated, tree);
}

/** DELETE /api/root_cause_settings/{id}: only an entry with nothing below it. */
export async function deleteRootCause(tx: Tx, p: Principal, id: string): Promise<void> {
  const tree = await loadTree(tx, true);
  const node = findNode(tree, id);
  if ((tree.children.get(id) ?? []).length > 0) {
    throw new AppError('conflict', { fields: { id: 'categories.validation.hasChildren' } });
  }
  await tx.delete(rootCauseSettings).where(eq(rootCauseSettings.id, id));
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'delete',
    entity: 'RootCauseSetting',
    entityId: id,
    changes: { name: node.name, parentId: node.parentId },
  });
}
