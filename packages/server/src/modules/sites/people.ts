/** People of the sites: heads of safety, the people pickers offer, and which sites a user belongs to. */
import type { SiteUserSummary } from '@bulwark/domain';
import { and, asc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { searchPattern } from '../../platform/http/list.js';
import { summary } from './common.js';
import { selectSites } from './sites.js';
import { sites, userSites } from './tables.js';

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

/* User-site membership (used by the users module) */

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
