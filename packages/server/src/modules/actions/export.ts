import { actionListQuerySchema, translate, type ActionListKind, type ActionListQuery, type Language } from '@bulwark/domain';
import { and, count, desc, eq, lt } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import type { ExcelColumn } from '../../platform/export/excel.js';
import { DATE_FORMAT, DATE_TIME_FORMAT, excelLocal } from '../../platform/export/stream-workbook.js';
import { categories } from '../categories/read.js';
import { EXPORT_PAGE, keysetPages, listExportSource, once, type ListExportSource } from '../list-exports/source.js';
import { sites } from '../sites/read.js';
import { filterWhere, withStatus } from './list.js';
import { describeSources } from './sources.js';
import { actions } from './tables.js';

/**
 * An action list's Excel export (issue 13): exactly the list's filtered rows and tab, newest first as the
 * list shows them, read in keyset pages on the serial, dates as date cells. The WHERE is the list's own
 * (queries.ts); `responsible` is the alias its search reads.
 */
const responsible = alias(users, 'responsible');
const creator = alias(users, 'creator');

/** The web list each export belongs to (the route table's ACTION_LISTS): the notification links there. */
export const ACTION_LIST_LINKS: Record<ActionListKind, string> = {
  all: '/actions/all',
  audit_action_datas: '/actions/audits',
  observation_action_datas: '/actions/observations',
  other_action_datas: '/actions',
  incident_action_datas: '/actions/incidents',
  si_observation_action_datas: '/actions/safety_interaction',
};

type Row = Awaited<ReturnType<typeof page>>[number];

function columns(lang: Language): ExcelColumn<Row>[] {
  const t = (key: string) => translate(lang, `actions.${key}`);
  // Translated once per value, not once per row (see `once`).
  const status = once((v: Row['status']) => t(`status.${v}`));
  const controlType = once((v: Row['controlType']) => t(`controlType.${v}`));
  const source = once((v: Row['sourceType']) => t(`source.${v}`));
  return [
    { header: t('fields.serial'), key: 'serial', width: 8, value: (a) => a.serial },
    { header: t('fields.description'), key: 'description', width: 48, value: (a) => a.description },
    { header: t('fields.status'), key: 'status', width: 14, value: (a) => status(a.status) },
    { header: t('fields.controlType'), key: 'control_type', width: 24, value: (a) => controlType(a.controlType) },
    { header: t('fields.responsible'), key: 'responsible', width: 24, value: (a) => a.responsibleName },
    // A day of the site's calendar.
    { header: t('fields.dueDate'), key: 'due_date', width: 12, numFmt: DATE_FORMAT, value: (a) => excelLocal(a.dueDate) },
    { header: t('fields.site'), key: 'site', width: 24, value: (a) => a.siteName },
    { header: t('fields.category'), key: 'category', width: 20, value: (a) => a.categoryName },
    {
      header: t('fields.source'),
      key: 'source',
      width: 22,
      value: (a) => [source(a.sourceType), a.sourceLabel ?? a.sourceSerial].filter((x) => x !== null).join(' '),
    },
    { header: t('fields.remarks'), key: 'remarks', width: 40, value: (a) => a.remarks },
    { header: t('fields.createdBy'), key: 'created_by', width: 24, value: (a) => a.creatorName },
    // Instants, in UTC as the API gives them.
    { header: t('fields.createdAt'), key: 'created_at', width: 20, numFmt: DATE_TIME_FORMAT, value: (a) => a.createdAt },
    { header: t('fields.completedAt'), key: 'completed_at', width: 20, numFmt: DATE_TIME_FORMAT, value: (a) => a.completedAt },
    { header: t('fields.closedAt'), key: 'closed_at', width: 20, numFmt: DATE_TIME_FORMAT, value: (a) => a.closedAt },
  ];
}

async function page(tx: Tx, kind: ActionListKind, q: ActionListQuery, after: number | null) {
  const rows = await tx
    .select({
      serial: actions.serial,
      description: actions.description,
      status: actions.status,
      controlType: actions.controlType,
      responsibleName: responsible.fullName,
      dueDate: actions.dueDate,
      siteName: sites.name,
      categoryName: categories.name,
      sourceType: actions.sourceType,
      sourceId: actions.sourceId,
      remarks: actions.remarks,
      creatorName: creator.fullName,
      createdAt: actions.createdAt,
      completedAt: actions.completedAt,
      closedAt: actions.closedAt,
    })
    .from(actions)
    .innerJoin(sites, and(eq(sites.organizationId, actions.organizationId), eq(sites.id, actions.siteId)))
    .leftJoin(responsible, and(eq(responsible.organizationId, actions.organizationId), eq(responsible.id, actions.responsibleId)))
    .leftJoin(creator, and(eq(creator.organizationId, actions.organizationId), eq(creator.id, actions.createdBy)))
    .leftJoin(categories, and(eq(categories.organizationId, actions.organizationId), eq(categories.id, actions.categoryId)))
    .where(and(...withStatus(filterWhere(kind, q), q), after === null ? undefined : lt(actions.serial, after)))
    .orderBy(desc(actions.serial))
    .limit(EXPORT_PAGE);
  const refs = await describeSources(
    tx,
    rows.map((r) => ({ type: r.sourceType, id: r.sourceId })),
  );
  return rows.map((r) => {
    const ref = r.sourceId ? refs.get(r.sourceId) : undefined;
    return { ...r, sourceSerial: ref?.serial ?? null, sourceLabel: ref?.label ?? null };
  });
}

async function countRows(tx: Tx, kind: ActionListKind, q: ActionListQuery): Promise<number> {
  const rows = tx.select({ n: count() }).from(actions).$dynamic();
  // The WHERE reads the joined names only when it searches (queries.ts countedActions).
  const joined = q.search
    ? rows
        .innerJoin(sites, and(eq(sites.organizationId, actions.organizationId), eq(sites.id, actions.siteId)))
        .leftJoin(responsible, and(eq(responsible.organizationId, actions.organizationId), eq(responsible.id, actions.responsibleId)))
    : rows;
  const [n] = await joined.where(and(...withStatus(filterWhere(kind, q), q)));
  return Number(n?.n ?? 0);
}

/** An action list's export of these filters, in the transaction `tx`. */
export function actionExport(tx: Tx, kind: ActionListKind, q: ActionListQuery, lang: Language): ListExportSource {
  return listExportSource({
    fileName: translate(lang, 'actions.list.exportName'),
    sheet: translate(lang, 'actions.excel.sheet'),
    columns: columns(lang),
    count: () => countRows(tx, kind, q),
    pages: () =>
      keysetPages<Row, number>(
        (after) => page(tx, kind, q, after),
        (r) => r.serial,
      ),
  });
}

/** The filters as a job keeps them (list_exports.query). */
export function storedActionQuery(q: ActionListQuery): Record<string, unknown> {
  const { export_to_excel: _flag, page: _page, per_page: _perPage, ...query } = q;
  return query;
}

export const actionQueryOf = (stored: Record<string, unknown>): ActionListQuery => actionListQuerySchema.parse(stored);
