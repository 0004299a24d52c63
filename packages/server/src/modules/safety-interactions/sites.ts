import { inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { sites } from '../sites/read.js';
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
