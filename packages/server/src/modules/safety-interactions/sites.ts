import { AppError } from '../../platform/errors.js';
import type { Tx } from '../../platform/db/db.js';
import { getSite, siteFullNames } from '../sites/service.js';

export type SiteRef = { id: string; name: string; time_zone: string };

/**
 * Sites by id, read through the sites service. With `activeOnly`, an inactive or unknown site is left
 * out (the caller refuses it); otherwise every site still shows on old records.
 */
export async function siteRefs(tx: Tx, ids: readonly string[], activeOnly = false): Promise<Map<string, SiteRef>> {
  const out = new Map<string, SiteRef>();
  for (const id of new Set(ids)) {
    try {
      const s = await getSite(tx, id);
      if (!activeOnly || s.is_active) out.set(id, { id: s.id, name: s.name, time_zone: s.time_zone });
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'not_found')) throw err;
    }
  }
  return out;
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
