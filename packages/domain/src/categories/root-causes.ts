import { z } from 'zod';

/**
 * Root-cause settings (the "why analysis" master, subject 'RC Master'): a tree per organisation.
 * Level 0 nodes are the root-cause types (People, Equipment, Environment, Procedures...), every node
 * below carries its type's name (`type_name`, the "grandparent type" of spec 000 §3). A type and up to
 * five levels of "why" below it: depth 0 to 5. The leaves are the root causes an investigation picks.
 */
export const ROOT_CAUSE_MAX_DEPTH = 5;
export const ROOT_CAUSE_NAME_MAX = 150;

const requiredOrInvalid = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? 'validation.required' : 'validation.invalid';

const nodeName = z
  .string({ error: requiredOrInvalid })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(ROOT_CAUSE_NAME_MAX, { message: 'validation.tooLong' });
const parentId = z.uuid({ error: 'validation.invalid' }).nullable();

/** POST /api/root_cause_settings (no parent: a new type). */
export const rootCauseCreateSchema = z.object({ name: nodeName, parent_id: parentId.optional() });
export type RootCauseCreate = z.infer<typeof rootCauseCreateSchema>;

/** PATCH /api/root_cause_settings/{id}: rename, move, (de)activate; `with_children` carries it down. */
export const rootCauseUpdateSchema = z
  .object({
    name: nodeName.optional(),
    parent_id: parentId.optional(),
    active: z.boolean({ error: 'validation.invalid' }).optional(),
    with_children: z.boolean({ error: 'validation.invalid' }).optional(),
  })
  .refine((v) => v.name !== undefined || v.parent_id !== undefined || v.active !== undefined, {
    message: 'categories.validation.nothingToChange',
  });
export type RootCauseUpdate = z.infer<typeof rootCauseUpdateSchema>;

export const rootCauseNodeSchema = z.object({
  id: z.string(),
  parent_id: z.string().nullable(),
  name: z.string(),
  type_name: z.string(),
  depth: z.number(),
  active: z.boolean(),
  children_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RootCauseNode = z.infer<typeof rootCauseNodeSchema>;

export const rootCauseListResponse = z.object({
  root_cause_settings: z.array(rootCauseNodeSchema),
  type_names: z.array(z.string()),
});
export type RootCauseListResponse = z.infer<typeof rootCauseListResponse>;

/** GET /api/root_cause_settings/{id}/root_cause_parent_listing: the node, its path from the type, its children. */
export const rootCauseParentListingResponse = z.object({
  root_cause_setting: rootCauseNodeSchema,
  ancestors: z.array(rootCauseNodeSchema),
  children: z.array(rootCauseNodeSchema),
});
export type RootCauseParentListingResponse = z.infer<typeof rootCauseParentListingResponse>;

/** GET /api/root_cause_settings/phenomena_root_causes: the selectable root causes (active leaves) with their path. */
export const phenomenaRootCausesResponse = z.object({
  phenomena_root_causes: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      type_name: z.string(),
      path: z.array(z.string()),
    }),
  ),
});
export type PhenomenaRootCausesResponse = z.infer<typeof phenomenaRootCausesResponse>;

const typeNameFilter = z.string().trim().max(ROOT_CAUSE_NAME_MAX, { message: 'validation.tooLong' }).optional();

/** GET /api/root_cause_settings: filter by type name, status and search. */
export const rootCauseListQuery = z.object({
  type_name: typeNameFilter,
  status: z.enum(['active', 'inactive'], { message: 'validation.invalid' }).optional(),
  search: z.string().trim().max(200, { message: 'validation.tooLong' }).optional(),
});
export type RootCauseListQuery = z.output<typeof rootCauseListQuery>;

/** GET /api/root_cause_settings/phenomena_root_causes. */
export const phenomenaRootCausesQuery = z.object({ type_name: typeNameFilter });

/** POST /api/root_cause_settings/{id}: the parent is the path's. */
export const rootCauseChildCreateSchema = rootCauseCreateSchema.omit({ parent_id: true });
export type RootCauseChildCreate = z.infer<typeof rootCauseChildCreateSchema>;

type TreeNode = { id: string; parent_id: string | null };

/** Looks nodes up by id and by parent. */
export function rootCauseIndex<T extends TreeNode>(nodes: readonly T[]) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const children = new Map<string | null, T[]>();
  for (const n of nodes) {
    const siblings = children.get(n.parent_id) ?? [];
    siblings.push(n);
    children.set(n.parent_id, siblings);
  }
  return { byId, children };
}

/** The chain from the type (level 0) down to the node's parent; stops on a broken or looping chain. */
export function rootCauseAncestors<T extends TreeNode>(id: string, byId: ReadonlyMap<string, T>): T[] {
  const chain: T[] = [];
  const seen = new Set<string>([id]);
  let parent = byId.get(id)?.parent_id ?? null;
  while (parent !== null && !seen.has(parent)) {
    const node = byId.get(parent);
    if (!node) break;
    chain.unshift(node);
    seen.add(parent);
    parent = node.parent_id;
  }
  return chain;
}

/** Every node below `id` (not `id` itself), parents before children. */
export function rootCauseDescendants<T extends TreeNode>(id: string, children: ReadonlyMap<string | null, readonly T[]>): T[] {
  const out: T[] = [];
  const queue = [...(children.get(id) ?? [])];
  const seen = new Set<string>([id]);
  while (queue.length > 0) {
    const n = queue.shift()!;
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    out.push(n);
    queue.push(...(children.get(n.id) ?? []));
  }
  return out;
}

/** How many levels hang below `id` (0 for a leaf). */
export function rootCauseHeight<T extends TreeNode>(id: string, children: ReadonlyMap<string | null, readonly T[]>): number {
  const below = children.get(id) ?? [];
  return below.length === 0 ? 0 : 1 + Math.max(...below.map((c) => rootCauseHeight(c.id, children)));
}

/**
 * Why moving `id` under `newParentId` is refused, or null when it is allowed: a node cannot hang below
 * itself or one of its descendants (a cycle), and the tree may not grow deeper than ROOT_CAUSE_MAX_DEPTH.
 */
export function rootCauseMoveProblem<T extends TreeNode>(
  id: string | null,
  newParentId: string | null,
  tree: { byId: ReadonlyMap<string, T>; children: ReadonlyMap<string | null, readonly T[]> },
): 'cycle' | 'tooDeep' | null {
  if (newParentId === null) return null;
  if (id !== null && (newParentId === id || rootCauseAncestors(newParentId, tree.byId).some((a) => a.id === id))) return 'cycle';
  const parentDepth = rootCauseAncestors(newParentId, tree.byId).length;
  const height = id === null ? 0 : rootCauseHeight(id, tree.children);
  if (parentDepth + 1 + height > ROOT_CAUSE_MAX_DEPTH) return 'tooDeep';
  return null;
}
