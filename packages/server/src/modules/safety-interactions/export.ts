import { siListQuerySchema, siSerial, translate, type Language, type SiListItem, type SiListQuery } from '@bulwark/domain';
import { and, desc, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import type { ExcelColumn } from '../../platform/export/excel.js';
import { DATE_TIME_FORMAT, excelLocal } from '../../platform/export/stream-workbook.js';
import { EXPORT_PAGE, keysetPages, listExportSource, once, type ListExportSource } from '../list-exports/source.js';
import { countInteractions, listWhere, toListItems, type ListFilters } from './service.js';
import { safetyInteractions } from './tables.js';

/**
 * The safety interactions list's Excel export (issue 13): exactly the list's filtered rows (its own
 * WHERE, keywords included) newest first, read in keyset pages of EXPORT_PAGE, each page described as
 * the list describes its rows (toListItems), the time held as a date cell. No cap: past the inline
 * limit the route hands it to the list-export job.
 */
type Item = SiListItem & { heldText: string };
/** held_at as PostgreSQL prints it, to the microsecond, and the serial: the list's order, exactly. */
type Key = { heldText: string; serial: number };

function columns(lang: Language): ExcelColumn<Item>[] {
  const t = (key: string) => translate(lang, `safetyInteractions.${key}`);
  const topic = once((x: string) => t(`topics.${x}`));
  const status = once((x: string) => t(`statuses.${x}`));
  const yes = t('list.yes');
  const no = t('list.no');
  return [
    { header: t('fields.serial'), key: 'serial', value: (r) => siSerial(r.serial) },
    // The site's wall-clock time, as the list shows it.
    { header: t('fields.heldAt'), key: 'held_at', width: 18, numFmt: DATE_TIME_FORMAT, value: (r) => excelLocal(r.held_at) },
    { header: t('fields.site'), key: 'site', width: 24, value: (r) => r.site.name },
    { header: t('fields.area'), key: 'area', width: 28, value: (r) => r.area?.full_name },
    { header: t('fields.observer'), key: 'observer', width: 22, value: (r) => r.observer?.full_name },
    { header: t('fields.people'), key: 'people', width: 32, value: (r) => r.people.join(', ') },
    { header: t('fields.crew'), key: 'crew', width: 24, value: (r) => r.crew },
    { header: t('fields.duration'), key: 'duration', value: (r) => r.duration_minutes },
    { header: t('fields.topics'), key: 'topics', width: 40, value: (r) => r.topics.map(topic).join(', ') },
    { header: t('fields.safeBehaviours'), key: 'safe', value: (r) => r.safe_count },
    { header: t('fields.atRiskBehaviours'), key: 'at_risk', value: (r) => r.at_risk_count },
    { header: t('fields.recognition'), key: 'recognition', value: (r) => (r.recognition_given ? yes : no) },
    { header: t('fields.status'), key: 'status', value: (r) => status(r.status) },
  ];
}

async function page(tx: Tx, q: ListFilters, after: Key | null): Promise<Item[]> {
  const t = safetyInteractions;
  const rows = await tx
    .select({ row: t, heldText: sql<string>`${t.heldAt}::text` })
    .from(t)
    .where(and(listWhere(q), after ? sql`(${t.heldAt}, ${t.serial}) < (${after.heldText}::timestamptz, ${after.serial})` : undefined))
    .orderBy(desc(t.heldAt), desc(t.serial))
    .limit(EXPORT_PAGE);
  const items = await toListItems(
    tx,
    rows.map((r) => r.row),
  );
  return items.map((item, i) => ({ ...item, heldText: rows[i]!.heldText }));
}

/** The safety interactions list's export of these filters, in the transaction `tx`. */
export function siExport(tx: Tx, q: ListFilters, lang: Language): ListExportSource {
  const title = translate(lang, 'safetyInteractions.list.exportName');
  return listExportSource({
    fileName: title,
    sheet: translate(lang, 'safetyInteractions.excel.sheet'),
    columns: columns(lang),
    count: () => countInteractions(tx, q),
    pages: () =>
      keysetPages<Item, Key>(
        (after) => page(tx, q, after),
        (r) => ({ heldText: r.heldText, serial: r.serial }),
      ),
  });
}

/** The filters as a job keeps them (list_exports.query). */
export function storedSiQuery(q: SiListQuery): Record<string, unknown> {
  const { export_to_excel: _flag, page: _page, per_page: _perPage, ...query } = q;
  return query;
}

/** The filters a job kept, read again as the list reads its query. */
export function siQueryOf(query: Record<string, unknown>): ListFilters {
  return siListQuerySchema.parse(query);
}
