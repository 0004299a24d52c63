import { siteListQuery, translate, type Language, type SiteResponse } from '@bulwark/domain';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import type { ExcelColumn } from '../../platform/export/excel.js';
import { EXPORT_PAGE, keysetPages, listExportSource, type ListExportSource } from '../list-exports/source.js';
import { headOfSafety, headOfSite, listWhere, siteSelection, toSiteResponse, type SiteListFilter } from './sites.js';
import { sites } from './tables.js';

/**
 * The sites list's Excel export (issue 13): every site the list's filters hold, by name as the list
 * shows them (sites.ts listSites), read in keyset pages. The WHERE is the list's own (listWhere).
 */
function columns(lang: Language): ExcelColumn<Item>[] {
  const t = (key: string) => translate(lang, `sites.${key}`);
  const active = t('list.active');
  const inactive = t('list.inactive');
  return [
    { header: t('fields.name'), key: 'name', width: 28, value: (s) => s.name },
    { header: t('fields.shortName'), key: 'short_name', value: (s) => s.short_name },
    { header: t('fields.siteCode'), key: 'site_code', value: (s) => s.site_code },
    { header: t('fields.timeZone'), key: 'time_zone', width: 22, value: (s) => s.time_zone },
    { header: t('fields.headOfSafety'), key: 'head_of_safety', width: 24, value: (s) => s.head_of_safety?.full_name },
    { header: t('fields.headOfSite'), key: 'head_of_site', width: 24, value: (s) => s.head_of_site?.full_name },
    { header: t('fields.emergencyPhone'), key: 'emergency_phone', width: 18, value: (s) => s.emergency_phone },
    { header: t('fields.emergencyEmail'), key: 'emergency_email', width: 26, value: (s) => s.emergency_email },
    { header: t('fields.address'), key: 'address', width: 32, value: (s) => s.address },
    { header: t('fields.city'), key: 'city', value: (s) => s.city },
    { header: t('fields.state'), key: 'state', value: (s) => s.state },
    { header: t('fields.country'), key: 'country', value: (s) => s.country },
    { header: t('fields.zip'), key: 'zip', value: (s) => s.zip },
    { header: t('fields.latitude'), key: 'latitude', value: (s) => s.latitude },
    { header: t('fields.longitude'), key: 'longitude', value: (s) => s.longitude },
    { header: t('fields.status'), key: 'status', value: (s) => (s.is_active ? active : inactive) },
  ];
}

/** A site's place in the list's order: its name as PostgreSQL lowers it (the order's own collation), then its id. */
type Key = { name: string; id: string };
type Item = SiteResponse & { key: Key };

const nameKey = sql<string>`lower(${sites.name})`;

async function page(tx: Tx, f: SiteListFilter, after: Key | null): Promise<Item[]> {
  const rows = await tx
    .select({ ...siteSelection, nameKey })
    .from(sites)
    .leftJoin(headOfSafety, and(eq(headOfSafety.organizationId, sites.organizationId), eq(headOfSafety.id, sites.headOfSafetyId)))
    .leftJoin(headOfSite, and(eq(headOfSite.organizationId, sites.organizationId), eq(headOfSite.id, sites.headOfSiteId)))
    .where(and(listWhere(f), after ? sql`(${nameKey}, ${sites.id}) > (${after.name}, ${after.id}::uuid)` : undefined))
    .orderBy(asc(nameKey), asc(sites.id))
    .limit(EXPORT_PAGE);
  return rows.map((r) => ({ ...toSiteResponse(r), key: { name: r.nameKey, id: r.site.id } }));
}

async function countRows(tx: Tx, f: SiteListFilter): Promise<number> {
  const [n] = await tx.select({ n: count() }).from(sites).where(listWhere(f));
  return Number(n?.n ?? 0);
}

/** The sites list's export of these filters, in the transaction `tx`. */
export function siteExport(tx: Tx, f: SiteListFilter, lang: Language): ListExportSource {
  return listExportSource({
    fileName: translate(lang, 'sites.list.exportName'),
    sheet: translate(lang, 'sites.excel.sheet'),
    columns: columns(lang),
    count: () => countRows(tx, f),
    pages: () =>
      keysetPages<Item, Key>(
        (after) => page(tx, f, after),
        (r) => r.key,
      ),
  });
}

/** The filters as a job keeps them (list_exports.query). */
export function storedSiteQuery(f: SiteListFilter): Record<string, unknown> {
  return { active: f.active, ...(f.search ? { search: f.search } : {}) };
}

/** The list's filters, of its query or of the one a job kept. */
export function siteFilterOf(q: { search?: string | undefined; active: SiteListFilter['active'] }): SiteListFilter {
  return { active: q.active, ...(q.search ? { search: q.search } : {}) };
}

export const siteQueryOf = (stored: Record<string, unknown>): SiteListFilter => siteFilterOf(siteListQuery.parse(stored));
