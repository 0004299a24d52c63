import { siteFullName, type SiteLevel } from '@bulwark/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { siteNodes } from '../sites/read.js';

export type AreaNode = { id: string; parentId: string | null; level: SiteLevel; name: string };

/** The areas (divisions, departments, units) of some sites, with their ancestry and full names. */
export async function areasOf(tx: Tx, siteIds: readonly string[]) {
  const rows = siteIds.length
    ? await tx
        .select({ id: siteNodes.id, parentId: siteNodes.parentId, level: siteNodes.level, name: siteNodes.name, siteId: siteNodes.siteId })
        .from(siteNodes)
        .where(siteIds.length === 1 ? eq(siteNodes.siteId, siteIds[0]!) : inArray(siteNodes.siteId, [...siteIds]))
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  /** The area and everything above it (its ancestors), as ids. */
  const lineage = (id: string): string[] => {
    const out: string[] = [];
    for (let n = byId.get(id); n; n = n.parentId ? byId.get(n.parentId) : undefined) out.push(n.id);
    return out;
  };
  return {
    rows,
    /** "Division / Department / Unit" (without the site). */
    fullName: (id: string | null): string | null =>
      id && byId.has(id)
        ? siteFullName(
            lineage(id)
              .reverse()
              .map((x) => byId.get(x)!.name),
          )
        : null,
    level: (id: string): SiteLevel | null => (byId.get(id)?.level as SiteLevel | undefined) ?? null,
    /**
     * Whether two places of one site overlap: the whole site (no area) overlaps everything; an area
     * overlaps itself, what contains it and what it contains.
     */
    overlap: (a: string | null, b: string | null): boolean => !a || !b || lineage(a).includes(b) || lineage(b).includes(a),
  };
}
