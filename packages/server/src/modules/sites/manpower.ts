/** Monthly manpower of the sites (spec 001 §3 Site manpower, §9): the default where nothing was set. */
import { MANPOWER_DEFAULT, manpowerYear, type ManpowerResponse } from '@bulwark/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import type { Actor } from './common.js';
import { siteManpower, sites } from './tables.js';

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
