import {
  formatObservationSerial,
  observationListQuery,
  translate,
  type Language,
  type ObservationListQuery,
  type ObservationRiskLevel,
  type ObservationSource,
  type ObservationStatus,
  type ObservationType,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import type { ExcelColumn } from '../../platform/export/excel.js';
import { DATE_TIME_FORMAT, excelLocal } from '../../platform/export/stream-workbook.js';
import { actionCountsOf } from '../actions/read.js';
import { categories } from '../categories/read.js';
import { siteNodes, sites } from '../sites/read.js';
import { EXPORT_PAGE, keysetPages, listExportSource, once, type ListExportSource } from '../list-exports/source.js';
import { observationWhere, type Narrowing } from './list.js';
import { observations } from './tables.js';

/**
 * The observations list's Excel export (issue 13): exactly the list's filtered rows in the list's order
 * (list.ts observationOrder), read in keyset pages, dates as date cells. The WHERE is the list's own
 * (observationWhere), so the export and the list can never disagree.
 */
const reporter = alias(users, 'reporter');

type ExportQuery = Omit<ObservationListQuery, 'page' | 'per_page' | 'export_to_excel'> & Narrowing;

type Row = {
  serial: number;
  type: ObservationType;
  category: string | null;
  site: string;
  area: string | null;
  observedLocal: string;
  riskLevel: ObservationRiskLevel;
  status: ObservationStatus;
  description: string;
  reporter: string | null;
  actionRequired: boolean;
  source: ObservationSource;
  createdAt: Date;
  /** created_at as PostgreSQL prints it, to the microsecond: the keyset compares it exactly. */
  createdText: string;
  actionsDone: number;
  actionsTotal: number;
};

function columns(lang: Language): ExcelColumn<Row>[] {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const type = once((v: ObservationType) => t(`categories.types.${v}`));
  const risk = once((v: ObservationRiskLevel) => t(`observations.riskLevels.${v}`));
  const status = once((v: ObservationStatus) => t(`observations.statuses.${v}`));
  const source = once((v: ObservationSource) => t(`observations.sources.${v}`));
  const yesNo = once((v: boolean) => t(v ? 'observations.fields.yes' : 'observations.fields.no'));
  // done and total as one number (a record has far fewer than a million actions): a key without a string.
  const progress = once((k: number) => t('observations.list.actionsProgress', { done: Math.floor(k / 1e6), total: k % 1e6 }));
  const anonymous = t('observations.anonymous');
  return [
    { header: t('observations.fields.serial'), key: 'serial', value: (o) => formatObservationSerial(o.serial) },
    { header: t('observations.fields.type'), key: 'type', width: 18, value: (o) => type(o.type) },
    { header: t('observations.fields.category'), key: 'category', width: 20, value: (o) => o.category },
    { header: t('observations.fields.site'), key: 'site', width: 22, value: (o) => o.site },
    { header: t('observations.fields.area'), key: 'area', width: 20, value: (o) => o.area },
    // The site's wall-clock time, as the list shows it.
    {
      header: t('observations.fields.observedAt'),
      key: 'observed_at',
      width: 18,
      numFmt: DATE_TIME_FORMAT,
      value: (o) => excelLocal(o.observedLocal),
    },
    { header: t('observations.fields.riskLevel'), key: 'risk_level', value: (o) => risk(o.riskLevel) },
    { header: t('observations.fields.status'), key: 'status', value: (o) => status(o.status) },
    { header: t('observations.fields.description'), key: 'description', width: 40, value: (o) => o.description },
    { header: t('observations.fields.reporter'), key: 'reporter', width: 20, value: (o) => o.reporter ?? anonymous },
    { header: t('observations.fields.actionRequired'), key: 'action_required', value: (o) => yesNo(o.actionRequired) },
    {
      header: t('observations.fields.actions'),
      key: 'actions',
      width: 18,
      value: (o) => progress(o.actionsDone * 1e6 + o.actionsTotal),
    },
    { header: t('observations.fields.source'), key: 'source', value: (o) => source(o.source) },
    // An instant, in UTC as the list's API gives it.
    { header: t('observations.fields.createdAt'), key: 'created_at', width: 20, numFmt: DATE_TIME_FORMAT, value: (o) => o.createdAt },
  ];
}

/** The list's order (list.ts orderOf) as keyset columns; the serial, unique, breaks ties. */
type Key = { first: string | number; serial: number };

function keyset(q: ExportQuery) {
  const dir = q.direction === 'asc' ? asc : desc;
  const past = q.direction === 'asc' ? gt : lt;
  if (q.sort === 'serial') {
    return {
      order: [dir(observations.serial)],
      after: (k: Key) => past(observations.serial, k.serial),
      keyOf: (r: Row): Key => ({ first: r.serial, serial: r.serial }),
    };
  }
  const first = q.sort === 'created_at' ? observations.createdAt : observations.observedLocal;
  const cast = q.sort === 'created_at' ? sql`::timestamptz` : sql`::timestamp`;
  const op = q.direction === 'asc' ? sql`>` : sql`<`;
  return {
    order: [dir(first), dir(observations.serial)],
    after: (k: Key): SQL => sql`(${first}, ${observations.serial}) ${op} (${k.first}${cast}, ${k.serial})`,
    keyOf: (r: Row): Key => ({ first: q.sort === 'created_at' ? r.createdText : r.observedLocal, serial: r.serial }),
  };
}

const counts = actionCountsOf('observation', observations.organizationId, observations.id);

async function page(tx: Tx, q: ExportQuery, after: Key | null): Promise<Row[]> {
  const k = keyset(q);
  const rows = await tx
    .select({
      serial: observations.serial,
      type: observations.type,
      category: categories.name,
      site: sites.name,
      area: siteNodes.name,
      observedLocal: observations.observedLocal,
      riskLevel: observations.riskLevel,
      status: observations.status,
      description: observations.description,
      anonymous: observations.anonymous,
      reporterFull: reporter.fullName,
      reporterName: observations.reporterName,
      actionRequired: observations.actionRequired,
      source: observations.source,
      createdAt: observations.createdAt,
      createdText: sql<string>`${observations.createdAt}::text`,
      // With the page rather than by a second query of the page's ids (actionStatusesOf): one round trip.
      actionsTotal: counts.total,
      actionsDone: counts.done,
    })
    .from(observations)
    .innerJoin(sites, eq(sites.id, observations.siteId))
    .leftJoin(categories, eq(categories.id, observations.categoryId))
    .leftJoin(siteNodes, eq(siteNodes.id, observations.siteNodeId))
    .leftJoin(reporter, eq(reporter.id, observations.reporterId))
    .where(and(observationWhere(q), after ? k.after(after) : undefined))
    .orderBy(...k.order)
    .limit(EXPORT_PAGE);
  // Field by field: a rest and a spread per row cost twice as much, in time and garbage.
  return rows.map((r): Row => ({
    serial: r.serial,
    type: r.type,
    category: r.category,
    site: r.site,
    area: r.area,
    observedLocal: r.observedLocal,
    riskLevel: r.riskLevel,
    status: r.status,
    description: r.description,
    reporter: r.anonymous ? null : (r.reporterFull ?? r.reporterName ?? null),
    actionRequired: r.actionRequired,
    source: r.source,
    createdAt: r.createdAt,
    createdText: r.createdText,
    actionsDone: r.actionsDone,
    actionsTotal: r.actionsTotal,
  }));
}

async function countRows(tx: Tx, q: ExportQuery): Promise<number> {
  const [n] = await tx.select({ n: count() }).from(observations).where(observationWhere(q));
  return Number(n?.n ?? 0);
}

/** The observations list's export of these filters, in the transaction `tx`. */
export function observationExport(tx: Tx, q: ExportQuery, lang: Language): ListExportSource {
  const title = translate(lang, 'observations.title');
  return listExportSource({
    fileName: title,
    sheet: title,
    columns: columns(lang),
    count: () => countRows(tx, q),
    pages: () =>
      keysetPages<Row, Key>(
        (after) => page(tx, q, after),
        (r) => keyset(q).keyOf(r),
      ),
  });
}

/** The filters as a job keeps them (list_exports.query): the list's query, and a guest's narrowing. */
export function storedObservationQuery(q: ObservationListQuery & Narrowing): Record<string, unknown> {
  const { reportedBy, export_to_excel: _flag, page: _page, per_page: _perPage, ...query } = q;
  return { ...query, reported_by: reportedBy ?? null };
}

const narrowing = z.object({ reported_by: z.string().nullable().optional() });

export function observationQueryOf(stored: Record<string, unknown>): ExportQuery {
  const query = observationListQuery.parse(stored);
  const reportedBy = narrowing.parse(stored).reported_by ?? undefined;
  return { ...query, ...(reportedBy ? { reportedBy } : {}) };
}
