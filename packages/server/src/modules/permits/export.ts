import { permitListQuery, translate, type Language, type PermitListItem, type PermitListQuery } from '@bulwark/domain';
import { and, count, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import type { ExcelColumn } from '../../platform/export/excel.js';
import { DATE_TIME_FORMAT, excelLocal } from '../../platform/export/stream-workbook.js';
import { EXPORT_PAGE, keysetPages, listExportSource, once, type ListExportSource } from '../list-exports/source.js';
import { baseQuery, orderOf, permitDate, toItems, whereOf, type Row, type Viewer } from './list.js';
import { permits } from './tables.js';

/**
 * The permits list's Excel export (issue 13): exactly the rows the viewer's list shows for these filters
 * (drafts only their requester's and those shared with them), in the list's order (list.ts orderOf), read
 * in keyset pages, dates as date cells. The WHERE and the rows' texts are the list's own.
 */
type ExportQuery = Omit<PermitListQuery, 'page' | 'per_page' | 'export_to_excel'>;

/** A page's item with its place in the list's order. */
type Item = PermitListItem & { key: Key };

function columns(lang: Language): ExcelColumn<Item>[] {
  const t = (key: string) => translate(lang, key);
  const status = once((v: Item['status']) => t(`permits.statuses.${v}`));
  return [
    { header: t('permits.fields.number'), key: 'number', value: (p) => p.number },
    { header: t('permits.fields.type'), key: 'type', width: 22, value: (p) => p.template.name },
    { header: t('permits.fields.status'), key: 'status', width: 16, value: (p) => status(p.status) },
    { header: t('permits.fields.requester'), key: 'requester', width: 20, value: (p) => p.requester.full_name },
    { header: t('permits.fields.site'), key: 'site', width: 20, value: (p) => p.site?.name },
    { header: t('permits.fields.area'), key: 'area', width: 20, value: (p) => p.area_name },
    // The site's wall-clock times, as the list shows them.
    { header: t('permits.fields.startAt'), key: 'start', width: 17, numFmt: DATE_TIME_FORMAT, value: (p) => excelLocal(p.start_at) },
    { header: t('permits.fields.endAt'), key: 'end', width: 17, numFmt: DATE_TIME_FORMAT, value: (p) => excelLocal(p.end_at) },
    { header: t('permits.fields.workers'), key: 'workers', width: 30, value: (p) => p.worker_names.join(', ') },
    { header: t('permits.fields.issuingOfficers'), key: 'issuers', width: 24, value: (p) => p.issuing_officers.join(', ') },
    { header: t('permits.fields.extensions'), key: 'extensions', value: (p) => p.extension_count },
    { header: t('permits.fields.description'), key: 'description', width: 40, value: (p) => p.description },
    // An instant, in UTC as the list's API gives it.
    { header: t('permits.fields.createdAt'), key: 'created', width: 18, numFmt: DATE_TIME_FORMAT, value: (p) => new Date(p.created_at) },
  ];
}

/** A row's place in the list's order: the sorted value as PostgreSQL prints it, and the serial (unique) after it. */
type Key = { first: string; serial: number };

function keyOf(q: ExportQuery, r: Row): Key {
  if (q.sort === 'created_at') return { first: r.createdText, serial: r.o.serial };
  if (q.sort === 'number') return { first: '', serial: r.o.serial };
  return { first: r.dateText, serial: r.o.serial };
}

/** The rows after `k` in the list's order: the serial goes the sort's way in every order. */
function after(q: ExportQuery, k: Key): SQL {
  const op = q.direction === 'asc' ? sql`>` : sql`<`;
  if (q.sort === 'number') return sql`${permits.serial} ${op} ${k.serial}`;
  if (q.sort === 'created_at') return sql`(${permits.createdAt}, ${permits.serial}) ${op} (${k.first}::timestamptz, ${k.serial})`;
  // The permit's date is never null (a draft without a start has its creation day).
  return sql`(${permitDate}, ${permits.serial}) ${op} (${k.first}::timestamp, ${k.serial})`;
}

async function page(tx: Tx, viewer: Viewer, q: ExportQuery, from: Key | null): Promise<Item[]> {
  const rows = await baseQuery(tx)
    .where(and(whereOf(viewer, q), from ? after(q, from) : undefined))
    .orderBy(...orderOf(q))
    .limit(EXPORT_PAGE);
  const items = await toItems(tx, viewer, rows);
  return items.map((item, i) => ({ ...item, key: keyOf(q, rows[i]!) }));
}

async function countRows(tx: Tx, viewer: Viewer, q: ExportQuery): Promise<number> {
  const [n] = await tx.select({ n: count() }).from(permits).where(whereOf(viewer, q));
  return Number(n?.n ?? 0);
}

/** The permits list's export of these filters as `viewer` sees it, in the transaction `tx`. */
export function permitExport(tx: Tx, viewer: Viewer, q: ExportQuery, lang: Language): ListExportSource {
  const title = translate(lang, 'permits.title');
  return listExportSource({
    fileName: title,
    sheet: title,
    columns: columns(lang),
    count: () => countRows(tx, viewer, q),
    pages: () =>
      keysetPages<Item, Key>(
        (from) => page(tx, viewer, q, from),
        (r) => r.key,
      ),
  });
}

/**
 * The filters as a job keeps them (list_exports.query). The viewer is not among them: the job reads as
 * the export's requester. Without a range the list holds the last six months counted from the day the
 * job runs, as the list would.
 */
export function storedPermitQuery(q: PermitListQuery): Record<string, unknown> {
  const { export_to_excel: _flag, page: _page, per_page: _perPage, ...query } = q;
  return query;
}

export const permitQueryOf = (stored: Record<string, unknown>): ExportQuery => permitListQuery.parse(stored);
