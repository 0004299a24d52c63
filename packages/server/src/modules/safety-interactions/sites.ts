import { siteFullName } from '@bulwark/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/db.js';
import { siteNodes, sites } from '../sites/read.js';
import { siteFullNames } from '../sites/service.js';

export type SiteRef = { id: string; name: string; time_zone: string };

/**
 * Sites by id, read through the sites service. With `activeOnly`, an inactive or unknown site is left
 * out (the caller refuses it); otherwise every site still shows on old records.
 */
export async function siteRefs(tx: Tx, ids: readonly string[], activeOnly = false): Promise<Map<string, SiteRef>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  // One query for a whole page of interactions (a site per row would be a query per row).
  const rows = await tx
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, isActive: sites.isActive })
    .from(sites)
    .where(inArray(sites.id, wanted));
  return new Map(rows.filter((s) => !activeOnly || s.isActive).map((s) => [s.id, { id: s.id, name: s.name, time_zone: s.timeZone }]));
}

/**
 * The full names ("Site / Division / …") of these divisions, departments and units only, by id, in one
 * statement: a list page names its few areas without reading every node of the organisation.
 */
export async function areaNamesOf(tx: Tx, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  // Three levels under a site at most: a unit's parent is a department, whose parent is a division.
  const parent = alias(siteNodes, 'parent');
  const grand = alias(siteNodes, 'grand');
  const rows = await tx
    .select({ id: siteNodes.id, site: sites.name, grand: grand.name, parent: parent.name, name: siteNodes.name })
    .from(siteNodes)
    .innerJoin(sites, and(eq(sites.organizationId, siteNodes.organizationId), eq(sites.id, siteNodes.siteId)))
    .leftJoin(parent, and(eq(parent.organizationId, siteNodes.organizationId), eq(parent.id, siteNodes.parentId)))
    .leftJoin(grand, and(eq(grand.organizationId, parent.organizationId), eq(grand.id, parent.parentId)))
    .where(inArray(siteNodes.id, wanted));
  return new Map(rows.map((r) => [r.id, siteFullName([r.site, r.grand, r.parent, r.name])]));
}

/** Every division, department and unit as "siteId:Site / Division / …", by id. */
export async function areaNames(tx: Tx): Promise<Map<string, string>> {
  const all = await siteFullNames(tx, false);
  return new Map(all.filter((x) => x.level !== 'site').map((x) => [x.id, `${x.site_id}:${x.full_name}`]));
}

/** The active sites with their areas, for the form. */
export async function formOptions(tx: Tx) {
  const all = await siteFullNames(tx, true);
  const sites = all.filter((x) => x.level === 'site');
  const refs = await siteRefs(
    tx,
    sites.map((s) => s.id),
  );
  return sites.map((s) => ({
    ...refs.get(s.id)!,
    areas: all.filter((x) => x.level !== 'site' && x.site_id === s.id).map((x) => ({ id: x.id, full_name: x.full_name })),
  }));
}
