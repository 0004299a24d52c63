import { incidentListQuery, translate, type IncidentListItem, type IncidentListQuery, type Language } from '@bulwark/domain';
import { and, count, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../platform/db/db.js';
import type { ExcelColumn } from '../../platform/export/excel.js';
import { DATE_FORMAT, DATE_TIME_FORMAT, excelLocal } from '../../platform/export/stream-workbook.js';
import { EXPORT_PAGE, keysetPages, listExportSource, once, type ListExportSource } from '../list-exports/source.js';
import { baseQuery, orderOf, toItems, whereOf, type Narrowing, type Row } from './list.js';
import { incidents } from './tables.js';

/**
 * The incidents list's Excel export (issue 13): exactly the list's filtered rows in the list's order
 * (list.ts orderOf), read in keyset pages, dates as date cells. The WHERE and the rows' texts are the
 * list's own (whereOf, toItems), so the export and the list can never disagree.
 */
type ExportQuery = Omit<IncidentListQuery, 'page' | 'per_page' | 'export_to_excel'> & Narrowing;

/** A page's item with its place in the list's order. */
type Item = IncidentListItem & { key: Key };

function columns(lang: Language): ExcelColumn<Item>[] {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  // Translated once per value, not once per row (see `once`).
  const type = once((v: Item['type']) => t(`categories.types.${v}`));
  const severity = once((v: Item['severity']) => (v ? t(`incidents.severities.${v}`) : t('incidents.ratingPending')));
  const likelihood = once((v: Item['likelihood']) => (v ? t(`incidents.likelihoods.${v}`) : ''));
  const risk = once((v: Item['risk_level']) => (v ? t(`incidents.riskLevels.${v}`) : ''));
  const status = once((v: Item['status']) => t(`incidents.statuses.${v}`));
  const state = once((v: Item['investigation_state']) => t(`incidents.investigationStates.${v}`));
  const source = once((v: Item['source']) => t(`incidents.sources.${v}`));
  const yesNo = once((v: boolean) => t(v ? 'incidents.fields.yes' : 'incidents.fields.no'));
  // done and total as one number (an incident has far fewer than a million actions): a key without a string.
  const progress = once((k: number) => t('incidents.fields.actionsProgress', { done: Math.floor(k / 1e6), total: k % 1e6 }));
  return [
    { header: t('incidents.fields.serial'), key: 'serial', value: (o) => o.serial_label },
    { header: t('incidents.fields.type'), key: 'type', width: 18, value: (o) => type(o.type) },
    { header: t('incidents.fields.category'), key: 'category', width: 20, value: (o) => o.category?.name },
    { header: t('incidents.fields.site'), key: 'site', width: 22, value: (o) => o.site.name },
    { header: t('incidents.fields.area'), key: 'area', width: 20, value: (o) => o.site_node_name },
    // The site's wall-clock time, as the list shows it.
    {
      header: t('incidents.fields.occurredAt'),
      key: 'occurred_at',
      width: 18,
      numFmt: DATE_TIME_FORMAT,
      value: (o) => excelLocal(o.occurred_at),
    },
    { header: t('incidents.fields.severity'), key: 'severity', value: (o) => severity(o.severity) },
    { header: t('incidents.fields.likelihood'), key: 'likelihood', value: (o) => likelihood(o.likelihood) },
    { header: t('incidents.fields.riskLevel'), key: 'risk_level', value: (o) => risk(o.risk_level) },
    { header: t('incidents.fields.status'), key: 'status', value: (o) => status(o.status) },
    { header: t('incidents.fields.investigationState'), key: 'state', width: 18, value: (o) => state(o.investigation_state) },
    { header: t('incidents.fields.currentStep'), key: 'step', value: (o) => o.current_step },
    { header: t('incidents.fields.lead'), key: 'lead', width: 20, value: (o) => o.lead?.full_name },
    // A day of the site's calendar.
    { header: t('incidents.fields.targetDate'), key: 'target_date', numFmt: DATE_FORMAT, value: (o) => excelLocal(o.target_date) },
    { header: t('incidents.fields.victims'), key: 'victims', width: 28, value: (o) => o.victim_names.join(', ') },
    { header: t('incidents.fields.description'), key: 'description', width: 40, value: (o) => o.description },
    { header: t('incidents.fields.reporter'), key: 'reporter', width: 20, value: (o) => o.reporter_name },
    { header: t('incidents.fields.actions'), key: 'actions', width: 18, value: (o) => progress(o.actions_done * 1e6 + o.actions_total) },
    { header: t('incidents.fields.oshaRecordable'), key: 'osha', value: (o) => yesNo(o.osha_recordable) },
    { header: t('incidents.fields.source'), key: 'source', value: (o) => source(o.source) },
    // An instant, in UTC as the list's API gives it.
    {
      header: t('incidents.fields.createdAt'),
      key: 'created_at',
      width: 20,
      numFmt: DATE_TIME_FORMAT,
      value: (o) => new Date(o.created_at),
    },
  ];
}

/**
 * A row's place in the list's order (orderOf): the sorted column as PostgreSQL prints it (exact, to the
 * microsecond), null for an incident without a target date, and the serial, unique, that breaks ties.
 */
type Key = { first: string | null; serial: number };

function keyOf(q: ExportQuery, r: Row): Key {
  if (q.sort === 'serial') return { first: null, serial: r.o.serial };
  if (q.sort === 'created_at') return { first: r.createdText, serial: r.o.serial };
  if (q.sort === 'target_date') return { first: r.o.targetDate, serial: r.o.serial };
  return { first: r.o.occurredLocal, serial: r.o.serial };
}

/** The rows after `k` in the list's order: the serial goes the sort's way in every order. */
function after(q: ExportQuery, k: Key): SQL {
  const op = q.direction === 'asc' ? sql`>` : sql`<`;
  const serial = incidents.serial;
  if (q.sort === 'serial') return sql`${serial} ${op} ${k.serial}`;
  if (q.sort === 'created_at') return sql`(${incidents.createdAt}, ${serial}) ${op} (${k.first}::timestamptz, ${k.serial})`;
  if (q.sort === 'target_date') {
    // Nulls last in both directions: past a dated row come the later dated ones, then every undated one.
    if (k.first === null) return sql`(${incidents.targetDate} is null and ${serial} ${op} ${k.serial})`;
    return sql`((${incidents.targetDate}, ${serial}) ${op} (${k.first}::date, ${k.serial}) or ${incidents.targetDate} is null)`;
  }
  return sql`(${incidents.occurredLocal}, ${serial}) ${op} (${k.first}::timestamp, ${k.serial})`;
}

async function page(tx: Tx, q: ExportQuery, from: Key | null): Promise<Item[]> {
  const rows = await baseQuery(tx)
    .where(and(whereOf(q), from ? after(q, from) : undefined))
    .orderBy(...orderOf(q))
    .limit(EXPORT_PAGE);
  const items = await toItems(tx, rows);
  return items.map((item, i) => ({ ...item, key: keyOf(q, rows[i]!) }));
}

async function countRows(tx: Tx, q: ExportQuery): Promise<number> {
  const [n] = await tx.select({ n: count() }).from(incidents).where(whereOf(q));
  return Number(n?.n ?? 0);
}

/** The incidents list's export of these filters, in the transaction `tx`. */
export function incidentExport(tx: Tx, q: ExportQuery, lang: Language): ListExportSource {
  const title = translate(lang, 'incidents.title');
  return listExportSource({
    fileName: title,
    sheet: title,
    columns: columns(lang),
    count: () => countRows(tx, q),
    pages: () =>
      keysetPages<Item, Key>(
        (from) => page(tx, q, from),
        (r) => r.key,
      ),
  });
}

/** The filters as a job keeps them (list_exports.query): the list's query, and a guest's narrowing. */
export function storedIncidentQuery(q: IncidentListQuery & Narrowing): Record<string, unknown> {
  const { reportedBy, export_to_excel: _flag, page: _page, per_page: _perPage, ...query } = q;
  return { ...query, reported_by: reportedBy ?? null };
}

const narrowing = z.object({ reported_by: z.string().nullable().optional() });

export function incidentQueryOf(stored: Record<string, unknown>): ExportQuery {
  const query = incidentListQuery.parse(stored);
  const reportedBy = narrowing.parse(stored).reported_by ?? undefined;
  return { ...query, ...(reportedBy ? { reportedBy } : {}) };
}
