import {
  ACTION_LIST_KINDS,
  ACTION_STATUSES,
  type ActionListItem,
  type ActionListKind,
  type ActionListQuery,
  type ActionSource,
  type ActionStatus,
  type ActionStatusCounts,
  SEARCH_COUNT_CAP,
  searchTotal,
} from '@bulwark/domain';
import { and, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { categories } from '../categories/read.js';
import { walkPage } from '../search-walk.js';
import { sites } from '../sites/read.js';
import { describeSources } from './sources.js';
import { actionCounts, actions } from './tables.js';

/*
 * The action lists at a large organisation's size (migration 0211). A page is found in two steps in
 * one statement: the serials of the page come from an index whose leading column is the list's
 * filter, newest serial next, carrying the other filters (an index-only scan, however deep the page);
 * then only those rows are read and joined to their names. The tab counts and the total come from
 * action_counts when the filters are the ones it keeps, otherwise from the same indexes.
 */

const responsible = alias(users, 'responsible');
const creator = alias(users, 'creator');

/** What a list row shows: the action's own columns and the names beside them. */
const listColumns = {
  a: {
    id: actions.id,
    serial: actions.serial,
    description: actions.description,
    controlType: actions.controlType,
    status: actions.status,
    dueDate: actions.dueDate,
    responsibleId: actions.responsibleId,
    sourceType: actions.sourceType,
    sourceId: actions.sourceId,
    siteId: actions.siteId,
    categoryId: actions.categoryId,
    remarks: actions.remarks,
    createdBy: actions.createdBy,
    createdAt: actions.createdAt,
    completedAt: actions.completedAt,
    closedAt: actions.closedAt,
  },
  responsibleName: responsible.fullName,
  creatorName: creator.fullName,
  siteName: sites.name,
  siteTimeZone: sites.timeZone,
  categoryName: categories.name,
};

/** A list row (the detail's fuller row fits it too). */
export type ListRow = {
  a: Pick<typeof actions.$inferSelect, keyof (typeof listColumns)['a']>;
  responsibleName: string | null;
  creatorName: string | null;
  siteName: string;
  siteTimeZone: string;
  categoryName: string | null;
};

const person = (id: string | null, name: string | null) => (id && name !== null ? { id, full_name: name } : null);

/** List items of rows, with their sources described in one query per source type. */
export async function toListItems(tx: Tx, rows: readonly ListRow[]): Promise<ActionListItem[]> {
  const refs = await describeSources(
    tx,
    rows.map((r) => ({ type: r.a.sourceType, id: r.a.sourceId })),
  );
  return rows.map(({ a, ...j }) => {
    const ref = a.sourceId ? refs.get(a.sourceId) : undefined;
    return {
      id: a.id,
      serial: a.serial,
      description: a.description,
      control_type: a.controlType,
      status: a.status,
      due_date: a.dueDate,
      responsible: person(a.responsibleId, j.responsibleName),
      source_type: a.sourceType,
      source_id: a.sourceId,
      source_serial: ref?.serial ?? null,
      site: { id: a.siteId, name: j.siteName, time_zone: j.siteTimeZone },
      category: a.categoryId && j.categoryName !== null ? { id: a.categoryId, name: j.categoryName } : null,
      source: { type: a.sourceType, id: a.sourceId, serial: ref?.serial ?? null, label: ref?.label ?? null },
      remarks: a.remarks,
      created_by: person(a.createdBy, j.creatorName),
      created_at: a.createdAt.toISOString(),
      completed_at: a.completedAt?.toISOString() ?? null,
      closed_at: a.closedAt?.toISOString() ?? null,
    };
  });
}

/** The people and sites whose names hold the keywords (their ids), looked up before the list's query. */
export type NameMatches = { people: string[]; places: string[] };

export async function nameMatches(tx: Tx, search: string | undefined): Promise<NameMatches | undefined> {
  if (!search) return undefined;
  const p = searchPattern(search);
  const result = await tx.execute<{ people: string[]; places: string[] }>(
    sql`select array(select ${users.id} from ${users} where ${users.fullName} ilike ${p}) as people,
      array(select ${sites.id} from ${sites} where ${sites.name} ilike ${p}) as places`,
  );
  const row = result.rows[0];
  return { people: row?.people ?? [], places: row?.places ?? [] };
}

/**
 * Keywords: the description or remarks (trigram indexes), the responsible person's or the site's name,
 * or "#12" / "12" for action 12. With the matching names known (`names`), their ids go in as values:
 * the planner then knows how many rows each arm finds and ORs the indexes' bitmaps instead of reading
 * the organisation's actions; without them (the export), subqueries find the same rows.
 */
function searchWhere(search: string, names?: NameMatches, walk = false): SQL {
  const p = searchPattern(search);
  // Description and remarks through app_action_matches (0211): under row-level security ILIKE cannot use
  // an index. When many rows match (`walk`), a page is found sooner by reading the list's index in order
  // and testing each row: the same rows, without collecting every match first.
  const matches: SQL[] = walk
    ? [ilike(actions.description, p), ilike(actions.remarks, p)]
    : [sql`${actions.serial} = any(array(select app_action_matches(app_current_org(), ${p})))`];
  if (!names) {
    matches.push(
      sql`${actions.responsibleId} = any(array(select ${users.id} from ${users} where ${users.fullName} ilike ${p}))`,
      sql`${actions.siteId} = any(array(select ${sites.id} from ${sites} where ${sites.name} ilike ${p}))`,
    );
  } else {
    if (names.people.length > 0) matches.push(inArray(actions.responsibleId, names.people));
    if (names.places.length > 0) matches.push(inArray(actions.siteId, names.places));
  }
  const serial = /^#?(\d{1,9})$/.exec(search.trim());
  if (serial) matches.push(eq(actions.serial, Number(serial[1])));
  return or(...matches)!;
}

/** The list's source: the list's own, or the one picked on the mixed list. */
function sourceOf(kind: ActionListKind, q: ActionListQuery): ActionSource | undefined {
  return ACTION_LIST_KINDS[kind] ?? q.source_type;
}

/** The filters of a list, without its status tab (the tab counts use them as they are). */
export function filterWhere(kind: ActionListKind, q: ActionListQuery, names?: NameMatches, walk = false): SQL[] {
  const parts: SQL[] = [];
  const source = sourceOf(kind, q);
  if (source) parts.push(eq(actions.sourceType, source));
  if (q.site_id) parts.push(eq(actions.siteId, q.site_id));
  if (q.responsible_id) parts.push(eq(actions.responsibleId, q.responsible_id));
  if (q.control_type) parts.push(eq(actions.controlType, q.control_type));
  if (q.due_from) parts.push(gte(actions.dueDate, q.due_from));
  if (q.due_to) parts.push(lte(actions.dueDate, q.due_to));
  if (q.search) parts.push(searchWhere(q.search, names, walk));
  return parts;
}

export const withStatus = (parts: SQL[], q: ActionListQuery): SQL[] =>
  q.status === 'all' ? parts : [...parts, eq(actions.status, q.status)];

/** The filters action_counts keeps (source, site, control type), or null when the list has others. */
function keptCountsWhere(kind: ActionListKind, q: ActionListQuery): SQL[] | null {
  if (q.responsible_id || q.due_from || q.due_to || q.search) return null;
  const parts: SQL[] = [];
  const source = sourceOf(kind, q);
  if (source) parts.push(eq(actionCounts.sourceType, source));
  if (q.site_id) parts.push(eq(actionCounts.siteId, q.site_id));
  if (q.control_type) parts.push(eq(actionCounts.controlType, q.control_type));
  return parts;
}

/** Per-status counts of a list's filters (the tabs), the status tab itself left out. */
export async function statusCounts(tx: Tx, kind: ActionListKind, q: ActionListQuery, names?: NameMatches): Promise<ActionStatusCounts> {
  const kept = keptCountsWhere(kind, q);
  const rows = kept
    ? await tx
        .select({ status: actionCounts.status, n: sql<number>`coalesce(sum(${actionCounts.n}), 0)::integer` })
        .from(actionCounts)
        .where(and(...kept))
        .groupBy(actionCounts.status)
    : await tx
        .select({ status: actions.status, n: count() })
        .from(actions)
        .where(and(...filterWhere(kind, q, names ?? (await nameMatches(tx, q.search)))))
        .groupBy(actions.status);
  const counts = Object.fromEntries(ACTION_STATUSES.map((s) => [s, 0])) as Record<(typeof ACTION_STATUSES)[number], number>;
  for (const r of rows as Array<{ status: ActionStatus; n: number }>) counts[r.status] = Number(r.n);
  return { all: Object.values(counts).reduce((a, b) => a + b, 0), ...counts };
}

const newestFirst = desc(actions.serial);

/** A page of the rows of `where` with their names, newest first. */
async function rowsOfPage(tx: Tx, where: SQL | undefined, limit: number, offset: number): Promise<ListRow[]> {
  // The serials alone first: the planner reads them from an index whose entries carry every filter.
  const page = tx.select({ serial: actions.serial }).from(actions).where(where).orderBy(newestFirst).limit(limit).offset(offset).as('page');
  return tx
    .select(listColumns)
    .from(page)
    .innerJoin(actions, eq(actions.serial, page.serial))
    .innerJoin(sites, and(eq(sites.organizationId, actions.organizationId), eq(sites.id, actions.siteId)))
    .leftJoin(responsible, and(eq(responsible.organizationId, actions.organizationId), eq(responsible.id, actions.responsibleId)))
    .leftJoin(creator, and(eq(creator.organizationId, actions.organizationId), eq(creator.id, actions.createdBy)))
    .leftJoin(categories, and(eq(categories.organizationId, actions.organizationId), eq(categories.id, actions.categoryId)))
    .orderBy(newestFirst);
}

/** The serial a search names: "#12" or "12" finds action 12. */
function searchSerial(search: string): number | null {
  const serial = /^#?(\d{1,9})$/.exec(search.trim());
  return serial ? Number(serial[1]) : null;
}

/**
 * The first `lim` matches of a search with the list's filters (the status tab's when `status` is given), in
 * no order (migration 0220): the function stops after `lim` rows, so a common word costs a thousand rows.
 */
function searchMatches(kind: ActionListKind, q: ActionListQuery, search: string, status: ActionStatus | null, lim: number): SQL {
  return sql`app_action_search(app_current_org(), ${searchPattern(search)}, ${searchSerial(search)}::integer,
    ${sourceOf(kind, q) ?? null}::text, ${q.site_id ?? null}::uuid, ${q.responsible_id ?? null}::uuid,
    ${q.control_type ?? null}::text, ${status}::text, ${q.due_from ?? null}::date, ${q.due_to ?? null}::date, ${lim}::integer) m`;
}

/**
 * A search's matches by status, up to SEARCH_COUNT_CAP + 1 of them in all (more: `capped`), with their
 * serials: up to the cap they are every match, and the page is read by them without searching again.
 */
async function searchCounts(tx: Tx, kind: ActionListKind, q: ActionListQuery, search: string, status: ActionStatus | null) {
  const res = await tx.execute<{ status: ActionStatus; n: number; serials: number[] }>(
    sql`select m.status, count(*)::integer as n, array_agg(m.serial) as serials
      from ${searchMatches(kind, q, search, status, SEARCH_COUNT_CAP + 1)} group by m.status`,
  );
  const counts = Object.fromEntries(ACTION_STATUSES.map((st) => [st, 0])) as Record<ActionStatus, number>;
  for (const r of res.rows) counts[r.status] = Number(r.n);
  const found = Object.values(counts).reduce((a, b) => a + b, 0);
  const capped = found > SEARCH_COUNT_CAP;
  const cap = (n: number) => (capped ? Math.min(n, SEARCH_COUNT_CAP) : n);
  const tabs: ActionStatusCounts = { all: cap(found), ...counts };
  for (const st of ACTION_STATUSES) tabs[st] = cap(counts[st]);
  const serialsOf = (tab: ActionListQuery['status']) => res.rows.filter((r) => tab === 'all' || r.status === tab).flatMap((r) => r.serials);
  return { tabs, found, capped, serialsOf };
}

/**
 * A search's page, its total and the tab counts. The tabs count the first SEARCH_COUNT_CAP + 1 matches
 * of every status (past the cap each is a lower bound); the status tab's own total is counted the same
 * way when it is not 'all'. Up to the cap the page is the newest of the counted matches' serials; past it
 * (a common word) the list's index is read in order, testing each row (walkPage), which finds a page after
 * (offset + limit) × rows / matches rows instead of collecting every match.
 */
async function searchList(tx: Tx, kind: ActionListKind, q: ActionListQuery, search: string, limit: number, offset: number) {
  const all = await searchCounts(tx, kind, q, search, null);
  const tab = q.status === 'all' || !all.capped ? all : await searchCounts(tx, kind, q, search, q.status);
  const found = tab.capped ? tab.found : tab.tabs[q.status];
  let rows: ListRow[] = [];
  if (tab.capped) {
    const names = await nameMatches(tx, search);
    const filters = and(sql`true`, ...withStatus(filterWhere(kind, { ...q, search: undefined }), q));
    const serials = await walkPage<number>(
      tx,
      (window) => sql`select ${actions.serial} as key, ${searchWhere(search, names, true)} as hit from ${actions}
        where ${filters} order by ${newestFirst} limit ${window}`,
      (window) => sql`select 1 from ${actions} where ${filters} limit ${window}`,
      limit,
      offset,
    );
    if (serials.length > 0) rows = await rowsOfPage(tx, inArray(actions.serial, serials), limit, 0);
  } else if (offset < found) {
    const page = tab
      .serialsOf(q.status)
      .sort((a, b) => b - a)
      .slice(offset, offset + limit);
    if (page.length > 0) rows = await rowsOfPage(tx, inArray(actions.serial, page), limit, 0);
  }
  const { total, totalCapped } = searchTotal(found, tab.capped, offset, limit, rows.length);
  return { actions: await toListItems(tx, rows), total, totalCapped, counts: all.tabs, countsCapped: all.capped };
}

/** One page of a list with its total and the tab counts; a search's are counted up to a cap (searchList). */
export async function listActions(tx: Tx, kind: ActionListKind, q: ActionListQuery) {
  const { limit, offset } = pageWindow(q);
  const search = q.search?.trim();
  if (search) return searchList(tx, kind, q, search, limit, offset);
  const counts = await statusCounts(tx, kind, q);
  const rows = await rowsOfPage(tx, and(...withStatus(filterWhere(kind, q), q)), limit, offset);
  return { actions: await toListItems(tx, rows), total: counts[q.status], totalCapped: false, counts, countsCapped: false };
}
