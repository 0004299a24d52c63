import { ROOT_CAUSE_MAX_DEPTH, rootCauseDescendants, rootCauseIndex, type RootCauseNode } from '@bulwark/domain';

/**
 * What the why-analysis tree shows: the nodes of one type (or all), and when searching, the matches with
 * the path down to each of them. `nodes` come from the server in reading order and keep it.
 */
export function visibleNodes(nodes: readonly RootCauseNode[], typeName: string | null, search: string): RootCauseNode[] {
  let shown = typeName ? nodes.filter((n) => n.type_name === typeName) : [...nodes];
  const needle = search.trim().toLowerCase();
  if (needle) {
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const keep = new Set<string>();
    for (const n of shown) {
      if (!n.name.toLowerCase().includes(needle)) continue;
      for (let cur: RootCauseNode | undefined = n; cur && !keep.has(cur.id); cur = cur.parent_id ? byId.get(cur.parent_id) : undefined)
        keep.add(cur.id);
    }
    shown = shown.filter((n) => keep.has(n.id));
  }
  return shown;
}

/** Hidden because an ancestor is collapsed. */
export function isHidden(node: RootCauseNode, byId: ReadonlyMap<string, RootCauseNode>, expanded: ReadonlySet<string>): boolean {
  for (let p = node.parent_id; p !== null; p = byId.get(p)?.parent_id ?? null) {
    if (!expanded.has(p)) return true;
    if (!byId.has(p)) return false;
  }
  return false;
}

/** Where a node may move: anywhere but below itself or its own entries, and not deeper than the limit. */
export function parentOptions(nodes: readonly RootCauseNode[], moving: RootCauseNode | null): RootCauseNode[] {
  const tree = rootCauseIndex(nodes);
  const excluded = new Set<string>();
  let height = 0;
  if (moving) {
    const below = rootCauseDescendants(moving.id, tree.children);
    excluded.add(moving.id);
    for (const d of below) excluded.add(d.id);
    height = below.length === 0 ? 0 : Math.max(...below.map((d) => d.depth)) - moving.depth;
  }
  return nodes.filter((n) => !excluded.has(n.id) && n.depth + 1 + height <= ROOT_CAUSE_MAX_DEPTH);
}

/** How many entries hang below a node (at any depth) and are active. */
export function activeBelow(nodes: readonly RootCauseNode[], id: string): number {
  return rootCauseDescendants(id, rootCauseIndex(nodes).children).filter((n) => n.active).length;
}
