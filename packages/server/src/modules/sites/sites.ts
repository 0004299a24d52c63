/** Sites: the list, one site, creating and changing a site (sites are deactivated, never deleted). */
import { normalizeSitePhone, siteSchema, type SiteResponse, type SiteValues } from '@bulwark/domain';
import { and, asc, count, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { checkUsers, pgError, siteRow, summary, type Actor, type SiteRow } from './common.js';
import { sites } from './tables.js';

export const headOfSafety = alias(users, 'head_of_safety');
export const headOfSite = alias(users, 'head_of_site');

/** Zod problems of a schema as field -> i18n key, the shape AppError carries. */
function fieldsOf(issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'body');
    fields[field] ??= issue.message;
  }
  return fields;
}

export const siteSelection = {
  site: sites,
  safety: { id: headOfSafety.id, fullName: headOfSafety.fullName, email: headOfSafety.email },
  head: { id: headOfSite.id, fullName: headOfSite.fullName, email: headOfSite.email },
};

export function toSiteResponse(r: {
  site: SiteRow;
  safety: { id: string | null; fullName: string | null; email: string | null } | null;
  head: { id: string | null; fullName: string | null; email: string | null } | null;
}): SiteResponse {
  const s = r.site;
  return {
    id: s.id,
    name: s.name,
    short_name: s.shortName,
    site_code: s.siteCode,
    time_zone: s.timeZone,
    head_of_safety: summary(r.safety),
    head_of_site: summary(r.head),
    emergency_phone: s.emergencyPhone,
    emergency_email: s.emergencyEmail,
    address: s.address,
    city: s.city,
    state: s.state,
    country: s.country,
    zip: s.zip,
    latitude: s.latitude,
    longitude: s.longitude,
    is_active: s.isActive,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

export function selectSites(tx: Tx) {
  return tx
    .select(siteSelection)
    .from(sites)
    .leftJoin(headOfSafety, and(eq(headOfSafety.organizationId, sites.organizationId), eq(headOfSafety.id, sites.headOfSafetyId)))
    .leftJoin(headOfSite, and(eq(headOfSite.organizationId, sites.organizationId), eq(headOfSite.id, sites.headOfSiteId)));
}

export type SiteListFilter = { search?: string; active: 'all' | 'active' | 'inactive' };

export function listWhere(f: SiteListFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (f.active === 'active') parts.push(eq(sites.isActive, true));
  if (f.active === 'inactive') parts.push(eq(sites.isActive, false));
  if (f.search) {
    const p = searchPattern(f.search);
    parts.push(or(ilike(sites.name, p), ilike(sites.shortName, p), ilike(sites.siteCode, p), ilike(sites.city, p), ilike(sites.state, p))!);
  }
  return parts.length > 0 ? and(...parts) : undefined;
}

/** One page of the organisation's sites, by name. */
export async function listSites(tx: Tx, f: SiteListFilter & { page: number; per_page: number }) {
  const where = listWhere(f);
  const { limit, offset } = pageWindow(f);
  const rows = await selectSites(tx)
    .where(where)
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(sites).where(where);
  return { sites: rows.map(toSiteResponse), total: Number(total?.n ?? 0) };
}

/** Every site matching the filter, capped so one request stays bounded (pickers; the Excel export streams them all: export.ts). */
export async function allSites(tx: Tx, f: SiteListFilter, cap = 10_000): Promise<SiteResponse[]> {
  const rows = await selectSites(tx)
    .where(listWhere(f))
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id))
    .limit(cap);
  return rows.map(toSiteResponse);
}

export async function getSite(tx: Tx, id: string): Promise<SiteResponse> {
  const [row] = await selectSites(tx).where(eq(sites.id, id));
  if (!row) throw new AppError('not_found');
  return toSiteResponse(row);
}

async function checkUnique(tx: Tx, v: { name: string; site_code: string | null }, exceptId?: string) {
  const fields: Record<string, string> = {};
  const notSelf = exceptId ? sql` and ${sites.id} <> ${exceptId}` : sql``;
  const [byName] = await tx
    .select({ id: sites.id })
    .from(sites)
    .where(sql`lower(${sites.name}) = lower(${v.name})${notSelf}`);
  if (byName) fields['name'] = 'sites.validation.nameTaken';
  if (v.site_code) {
    const [byCode] = await tx
      .select({ id: sites.id })
      .from(sites)
      .where(sql`lower(${sites.siteCode}) = lower(${v.site_code})${notSelf}`);
    if (byCode) fields['site_code'] = 'sites.validation.codeTaken';
  }
  if (Object.keys(fields).length > 0) throw new AppError('conflict', { fields });
}

/** A write that lost a race to the unique indexes is the same conflict the pre-check reports. */
async function guardUnique<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23505' && constraint === 'sites_name_unique')
      throw new AppError('conflict', { fields: { name: 'sites.validation.nameTaken' } });
    if (code === '23505' && constraint === 'sites_code_unique')
      throw new AppError('conflict', { fields: { site_code: 'sites.validation.codeTaken' } });
    throw err;
  }
}

function columnsOf(v: SiteValues, phone: string) {
  return {
    name: v.name,
    shortName: v.short_name,
    siteCode: v.site_code,
    timeZone: v.time_zone,
    headOfSafetyId: v.head_of_safety_id,
    headOfSiteId: v.head_of_site_id,
    emergencyPhone: phone,
    emergencyEmail: v.emergency_email,
    address: v.address,
    city: v.city,
    state: v.state,
    country: v.country,
    zip: v.zip,
    latitude: v.latitude,
    longitude: v.longitude,
  };
}

export async function createSite(tx: Tx, actor: Actor, v: SiteValues): Promise<SiteResponse> {
  await checkUsers(tx, { head_of_safety_id: v.head_of_safety_id, head_of_site_id: v.head_of_site_id });
  await checkUnique(tx, v);
  const phone = normalizeSitePhone(v.emergency_phone, v.country);
  if (!phone) throw new AppError('validation_failed', { fields: { emergency_phone: 'sites.validation.phone' } });
  const [row] = await guardUnique(() =>
    tx
      .insert(sites)
      .values({ ...columnsOf(v, phone), isActive: v.is_active ?? true, createdBy: actor.userId })
      .returning({ id: sites.id }),
  );
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'create',
    entity: 'Site',
    entityId: row!.id,
    changes: { ...v, emergency_phone: phone },
  });
  return getSite(tx, row!.id);
}

/** The stored site as the form would send it, so a partial change can be checked as a whole. */
function inputOf(s: SiteRow): Record<string, unknown> {
  return {
    name: s.name,
    short_name: s.shortName,
    site_code: s.siteCode,
    time_zone: s.timeZone,
    head_of_safety_id: s.headOfSafetyId ?? undefined,
    head_of_site_id: s.headOfSiteId,
    emergency_phone: s.emergencyPhone,
    emergency_email: s.emergencyEmail,
    address: s.address,
    city: s.city,
    state: s.state,
    country: s.country,
    zip: s.zip,
    latitude: s.latitude,
    longitude: s.longitude,
    is_active: s.isActive,
  };
}

/**
 * Changes a site. The change is merged into the stored site and the whole is checked again, so a new
 * country re-checks the old phone. Only `is_active` alone (deactivate/activate) skips the check: a site
 * whose head of safety has left must still be deactivatable.
 */
export async function updateSite(tx: Tx, actor: Actor, id: string, patch: Record<string, unknown>): Promise<SiteResponse> {
  const current = await siteRow(tx, id, true);
  const keys = Object.keys(patch).filter((k) => patch[k] !== undefined);
  if (keys.length === 1 && keys[0] === 'is_active') {
    const isActive = patch['is_active'] === true;
    if (isActive !== current.isActive) {
      await tx.update(sites).set({ isActive, updatedAt: new Date() }).where(eq(sites.id, id));
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: isActive ? 'activate' : 'deactivate',
        entity: 'Site',
        entityId: id,
        changes: { is_active: isActive },
      });
    }
    return getSite(tx, id);
  }
  const before = inputOf(current);
  const parsed = siteSchema.safeParse({ ...before, ...Object.fromEntries(keys.map((k) => [k, patch[k]])) });
  if (!parsed.success) throw new AppError('validation_failed', { fields: fieldsOf(parsed.error.issues) });
  const v = parsed.data;
  const changedUsers: Record<string, string | null> = {};
  if (v.head_of_safety_id !== current.headOfSafetyId) changedUsers['head_of_safety_id'] = v.head_of_safety_id;
  if (v.head_of_site_id !== current.headOfSiteId) changedUsers['head_of_site_id'] = v.head_of_site_id;
  await checkUsers(tx, changedUsers);
  await checkUnique(tx, v, id);
  const phone = normalizeSitePhone(v.emergency_phone, v.country);
  if (!phone) throw new AppError('validation_failed', { fields: { emergency_phone: 'sites.validation.phone' } });
  const next = { ...columnsOf(v, phone), isActive: v.is_active ?? current.isActive };
  await guardUnique(() =>
    tx
      .update(sites)
      .set({ ...next, updatedAt: new Date() })
      .where(eq(sites.id, id)),
  );
  const after: Record<string, unknown> = { ...v, emergency_phone: phone, is_active: next.isActive };
  const changes = Object.fromEntries(
    Object.entries(after)
      .filter(([k, val]) => before[k] !== val)
      .map(([k, val]) => [k, { from: before[k] ?? null, to: val }]),
  );
  await recordAudit(tx, { actorUserId: actor.userId, action: 'update', entity: 'Site', entityId: id, changes });
  return getSite(tx, id);
}
