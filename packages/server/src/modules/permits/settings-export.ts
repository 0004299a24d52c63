import {
  MASTER_KINDS,
  masterListQuery,
  translate,
  workerListQuery,
  type Language,
  type MasterEntry,
  type MasterKind,
  type MasterListQuery,
  type Worker,
  type WorkerListQuery,
} from '@bulwark/domain';
import { and, asc, count, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import type { ExcelColumn } from '../../platform/export/excel.js';
import { DATE_TIME_FORMAT } from '../../platform/export/stream-workbook.js';
import { EXPORT_PAGE, keysetPages, listExportSource, once, type ListExportSource } from '../list-exports/source.js';
import { masterEntryOf, whereOf as masterWhere } from './masters.js';
import { permitMasters, workProfiles } from './tables.js';
import { lastUsed, workerOf, workerWhere } from './workers.js';

/**
 * The Excel exports of the permit settings' lists (issue 13): the worker profiles and each of the four
 * masters, every row their filters hold, by name as the lists show them, read in keyset pages on
 * (lower(name), id). The WHEREs are the lists' own.
 */

/** A row's place in the lists' order: its name as PostgreSQL lowers it (the order's own collation), then its id. */
type Key = { name: string; id: string };

/** The web page of each master (the notification of a finished export links there). */
export const MASTER_LINKS: Record<MasterKind, string> = {
  hierarchy_of_controls: '/hierarchy-of-controls',
  activity: '/activity-masters',
  equipment: '/equipment-master',
  rescue: '/rescue-master',
};

export const isMasterKind = (kind: string): kind is MasterKind => (MASTER_KINDS as readonly string[]).includes(kind);

// --- Masters --------------------------------------------------------------------------------------

type MasterQuery = Pick<MasterListQuery, 'search' | 'status'>;
type MasterItem = MasterEntry & { key: Key };

function masterColumns(lang: Language, kind: MasterKind): ExcelColumn<MasterItem>[] {
  const t = (key: string) => translate(lang, key);
  const level = once((v: MasterItem['control_level']) => (v ? t(`actions.controlType.${v}`) : ''));
  const yes = t('permits.fields.yes');
  const no = t('permits.fields.no');
  return [
    { header: t('permits.masters.import.columns.name'), key: 'name', width: 30, value: (e) => e.name },
    { header: t('permits.masters.import.columns.description'), key: 'description', width: 48, value: (e) => e.description },
    ...(kind === 'hierarchy_of_controls'
      ? [
          {
            header: t('permits.masters.import.columns.control_level'),
            key: 'level',
            width: 18,
            value: (e: MasterItem) => level(e.control_level),
          },
        ]
      : []),
    { header: t('permits.masters.import.columns.active'), key: 'active', value: (e) => (e.active ? yes : no) },
  ];
}

const masterName = sql<string>`lower(${permitMasters.name})`;

async function masterPage(tx: Tx, kind: MasterKind, q: MasterQuery, after: Key | null): Promise<MasterItem[]> {
  const rows = await tx
    .select({ m: permitMasters, nameKey: masterName })
    .from(permitMasters)
    .where(and(masterWhere(kind, q), after ? sql`(${masterName}, ${permitMasters.id}) > (${after.name}, ${after.id}::uuid)` : undefined))
    .orderBy(asc(masterName), asc(permitMasters.id))
    .limit(EXPORT_PAGE);
  return rows.map((r) => ({ ...masterEntryOf(r.m), key: { name: r.nameKey, id: r.m.id } }));
}

/** One master's export of these filters, in the transaction `tx`. */
export function masterExport(tx: Tx, kind: MasterKind, q: MasterQuery, lang: Language): ListExportSource {
  const title = translate(lang, `permits.masterKinds.${kind}`);
  return listExportSource({
    fileName: title,
    sheet: title,
    columns: masterColumns(lang, kind),
    count: async () => {
      const [n] = await tx.select({ n: count() }).from(permitMasters).where(masterWhere(kind, q));
      return Number(n?.n ?? 0);
    },
    pages: () =>
      keysetPages<MasterItem, Key>(
        (after) => masterPage(tx, kind, q, after),
        (r) => r.key,
      ),
  });
}

// --- Worker profiles ------------------------------------------------------------------------------

type WorkerQuery = Pick<WorkerListQuery, 'search' | 'status'>;
type WorkerItem = Worker & { key: Key };

function workerColumns(lang: Language): ExcelColumn<WorkerItem>[] {
  const t = (key: string) => translate(lang, key);
  const gender = once((v: WorkerItem['gender']) => (v ? t(`permits.genders.${v}`) : ''));
  const yes = t('permits.fields.yes');
  const no = t('permits.fields.no');
  return [
    { header: t('permits.fields.name'), key: 'name', width: 24, value: (w) => w.name },
    { header: t('permits.fields.idNumber'), key: 'id_number', width: 16, value: (w) => w.id_number },
    { header: t('permits.fields.phone'), key: 'phone', width: 18, value: (w) => w.phone },
    { header: t('permits.fields.age'), key: 'age', value: (w) => w.age },
    { header: t('permits.fields.gender'), key: 'gender', value: (w) => gender(w.gender) },
    { header: t('permits.fields.active'), key: 'active', value: (w) => (w.active ? yes : no) },
    // An instant, in UTC as the list's API gives it.
    {
      header: t('permits.fields.lastUsed'),
      key: 'last_used',
      width: 20,
      numFmt: DATE_TIME_FORMAT,
      value: (w) => (w.last_used_at ? new Date(w.last_used_at) : null),
    },
  ];
}

const workerName = sql<string>`lower(${workProfiles.name})`;

async function workerPage(tx: Tx, q: WorkerQuery, after: Key | null): Promise<WorkerItem[]> {
  const rows = await tx
    .select({ w: workProfiles, used: lastUsed, nameKey: workerName })
    .from(workProfiles)
    .where(and(workerWhere(q), after ? sql`(${workerName}, ${workProfiles.id}) > (${after.name}, ${after.id}::uuid)` : undefined))
    .orderBy(asc(workerName), asc(workProfiles.id))
    .limit(EXPORT_PAGE);
  return rows.map((r) => ({ ...workerOf(r.w, r.used), key: { name: r.nameKey, id: r.w.id } }));
}

/** The worker profiles' export of these filters, in the transaction `tx`. */
export function workerExport(tx: Tx, q: WorkerQuery, lang: Language): ListExportSource {
  const title = translate(lang, 'permits.fields.workers');
  return listExportSource({
    fileName: title,
    sheet: title,
    columns: workerColumns(lang),
    count: async () => {
      const [n] = await tx.select({ n: count() }).from(workProfiles).where(workerWhere(q));
      return Number(n?.n ?? 0);
    },
    pages: () =>
      keysetPages<WorkerItem, Key>(
        (after) => workerPage(tx, q, after),
        (r) => r.key,
      ),
  });
}

// --- The filters as a job keeps them (list_exports.query) -----------------------------------------

/** Both lists' filters: a status and maybe a search. */
export function storedSettingsQuery(q: { search?: string | undefined; status: string }): Record<string, unknown> {
  return { status: q.status, ...(q.search ? { search: q.search } : {}) };
}

export const masterQueryOf = (stored: Record<string, unknown>): MasterQuery => masterListQuery.parse(stored);
export const workerQueryOf = (stored: Record<string, unknown>): WorkerQuery => workerListQuery.parse(stored);
