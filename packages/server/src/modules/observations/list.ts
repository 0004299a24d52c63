import {
  CONTROL_TYPES,
  OBSERVATION_RISK_LEVELS,
  OBSERVATION_STATUSES,
  OBSERVATION_TYPES,
  SEARCH_COUNT_CAP,
  formatObservationSerial,
  searchTotal,
  parseObservationSerial,
  type ObservationCountsQueryInput,
  type ObservationFormData,
  type ObservationGuestFormData,
  type ObservationHazardTypes,
  type ObservationListItem,
  type ObservationListQuery,
  type ObservationStatus,
  type ObservationStatusCounts,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { actionStatusesOf } from '../actions/service.js';
import { categories, subCategories } from '../categories/read.js';
import { siteFullNames } from '../sites/service.js';
import { walkPage } from '../search-walk.js';
import { siteNodes, sites } from '../sites/read.js';
import { observationAttachments, observationDayCounts, observations } from './tables.js';
import { toLocalText } from './view.js';

/** Set by the server, never by the query: a guest's lists hold only the reports it made (platform/auth/guests.ts). */
export type Narrowing = { reportedBy?: string };
export type ObservationFilters = Omit<ObservationCountsQueryInput, 'status'> & {
  status?: ObservationListQuery['status'];
} & Narrowing;
type Filters = ObservationFilters;
type Sort = Pick<ObservationListQuery, 'sort' | 'direction'>;

const reporter = alias(users, 'reporter');

/** The columns the filters and sorts read. */
type FilterColumns = Record<
  'status' | 'siteId' | 'type' | 'riskLevel' | 'reporterId' | 'observedLocal' | 'createdAt' | 'serial',
  SQLWrapper
>;
const tableColumns: FilterColumns = observations;

/** Every filter but the keywords. Each is an equality or range an index of 0130/0210 starts with. */
function filterConds(c: FilterColumns, f: Filters): SQL[] {
  const conds: SQL[] = [];
  if (f.reportedBy) conds.push(sql`${c.reporterId} = ${f.reportedBy}`);
  if (f.status && f.status !== 'all') conds.push(sql`${c.status} = ${f.status}`);
  if (f.site_id) conds.push(sql`${c.siteId} = ${f.site_id}`);
  if (f.type) conds.push(sql`${c.type} = ${f.type}`);
  if (f.risk_level) conds.push(sql`${c.riskLevel} = ${f.risk_level}`);
  // Local dates of the sites, both ends included.
  if (f.from) conds.push(sql`${c.observedLocal} >= ${f.from}::timestamp`);
  if (f.to) conds.push(sql`${c.observedLocal} < ${f.to}::timestamp + interval '1 day'`);
  return conds;
}

type Search = { pattern: string; serial: number | null };

function searchOf(f: Filters): Search | null {
  const search = f.search?.trim();
  return search ? { pattern: searchPattern(search), serial: parseObservationSerial(search) } : null;
}

/**
 * The observations a search matches: serial, description, comment, a guest's name, the site's, the
 * category's or the staff reporter's name (unless anonymous), with the columns filters and sorts read.
 * A function of migration 0210 so the trigram index can answer under row-level security.
 */
function matches(s: Search): SQL {
  return sql`app_observation_matches(app_current_org(), ${s.pattern}, ${s.serial}::integer) m`;
}

/**
 * The same search written as a plain condition on the observations row. Read in index order, it finds a
 * page of a common word after a few rows instead of collecting every match (listObservations chooses).
 * It must match exactly what app_observation_matches matches; observation-plans.test.ts compares them.
 */
function searchCondition(s: Search): SQL {
  return sql`(${observations.serial} = ${s.serial}::integer
    or app_observation_text(${observations.description}, ${observations.comment}, ${observations.reporterName}) ilike ${s.pattern}
    or ${observations.siteId} = any (array(select ${sites.id} from ${sites} where ${sites.name} ilike ${s.pattern}))
    or ${observations.categoryId} = any (array(select ${categories.id} from ${categories} where ${categories.name} ilike ${s.pattern}))
    or (not ${observations.anonymous}
      and ${observations.reporterId} = any (array(select ${users.id} from ${users} where ${users.fullName} ilike ${s.pattern}))))`;
}

/**
 * The WHERE of the list, the export and the tab counts over `observations`: the same filters give the same
 * rows. Keywords select the ids of the search's matches (index-backed), so no join is needed for them.
 */
export function observationWhere(f: Filters): SQL | undefined {
  const s = searchOf(f);
  return and(...filterConds(tableColumns, f), s ? sql`${observations.id} = any (array(select m.id from ${matches(s)}))` : undefined);
}

/** ORDER BY of the list and the export; each sort has an index that reads it in order (0110, 0130, 0210). */
export function observationOrder(q: Sort, c: FilterColumns = tableColumns): SQL[] {
  const dir = q.direction === 'asc' ? asc : desc;
  if (q.sort === 'serial') return [dir(c.serial)];
  if (q.sort === 'created_at') return [dir(c.createdAt), dir(c.serial)];
  return [dir(c.observedLocal), dir(c.serial)];
}

/** The page's rows: the columns the list shows, names of the site, category, area and staff reporter. */
function pageQuery(tx: Tx) {
  return tx
    .select({
      id: observations.id,
      serial: observations.serial,
      type: observations.type,
      categoryId: observations.categoryId,
      description: observations.description,
      siteId: observations.siteId,
      observedLocal: observations.observedLocal,
      riskLevel: observations.riskLevel,
      status: observations.status,
      actionRequired: observations.actionRequired,
      anonymous: observations.anonymous,
      guestName: observations.reporterName,
      source: observations.source,
      createdAt: observations.createdAt,
      siteName: sites.name,
      categoryName: categories.name,
      nodeName: siteNodes.name,
      reporterName: reporter.fullName,
    })
    .from(observations)
    .innerJoin(sites, eq(sites.id, observations.siteId))
    .leftJoin(categories, eq(categories.id, observations.categoryId))
    .leftJoin(siteNodes, eq(siteNodes.id, observations.siteNodeId))
    .leftJoin(reporter, eq(reporter.id, observations.reporterId))
    .$dynamic();
}

type Row = Awaited<ReturnType<typeof pageQuery>>[number];

/** The page's actions and attachments, one query each for the whole page (by their indexes' prefixes). */
async function toItems(tx: Tx, rows: Row[]): Promise<ObservationListItem[]> {
  const ids = rows.map((r) => r.id);
  const statuses = await actionStatusesOf(tx, 'observation', ids);
  const fileCounts = new Map(
    ids.length
      ? (
          await tx
            .select({ id: observationAttachments.observationId, n: count() })
            .from(observationAttachments)
            .where(inArray(observationAttachments.observationId, ids))
            .groupBy(observationAttachments.observationId)
        ).map((r) => [r.id, Number(r.n)])
      : [],
  );
  return rows.map((o) => {
    const acts = statuses.get(o.id) ?? [];
    return {
      id: o.id,
      serial: o.serial,
      serial_label: formatObservationSerial(o.serial),
      type: o.type,
      category: o.categoryId && o.categoryName ? { id: o.categoryId, name: o.categoryName } : null,
      description: o.description,
      site: { id: o.siteId, name: o.siteName },
      site_node_name: o.nodeName ?? null,
      observed_at: toLocalText(o.observedLocal),
      risk_level: o.riskLevel,
      status: o.status,
      action_required: o.actionRequired,
      reporter_name: o.anonymous ? null : (o.reporterName ?? o.guestName ?? null),
      source: o.source,
      actions_total: acts.length,
      actions_done: acts.filter((s) => s === 'completed' || s === 'closed').length,
      attachments_count: fileCounts.get(o.id) ?? 0,
      created_at: o.createdAt.toISOString(),
    };
  });
}

/**
 * The filters the day counts (migration 0130) answer: none, a status, local dates. Returns the WHERE over
 * observation_day_counts, or null when the filters need the rows.
 */
function dayCountsWhere(f: Filters): SQL | null | undefined {
  if (f.reportedBy || f.site_id || f.type || f.risk_level || f.search?.trim()) return null;
  return and(
    f.status && f.status !== 'all' ? eq(observationDayCounts.status, f.status) : undefined,
    f.from ? gte(observationDayCounts.day, f.from) : undefined,
    f.to ? lte(observationDayCounts.day, f.to) : undefined,
  );
}

const daySum = sql<number>`coalesce(sum(${observationDayCounts.n}), 0)::integer`;

/**
 * How many observations the filters select, by status. Without keywords: the day counts, or the filters'
 * index entries (a site, type or risk index carries the status, migration 0130: an index-only count).
 * Exact, as the tabs and the pages show them. Keywords are counted by searchCounts instead.
 */
async function countsByStatus(tx: Tx, f: Filters): Promise<Array<{ status: ObservationStatus; n: number }>> {
  const byDay = dayCountsWhere(f);
  if (byDay !== null) {
    return tx
      .select({ status: observationDayCounts.status, n: daySum })
      .from(observationDayCounts)
      .where(byDay)
      .groupBy(observationDayCounts.status);
  }
  return tx
    .select({ status: observations.status, n: sql<number>`count(*)::integer` })
    .from(observations)
    .where(and(...filterConds(tableColumns, f)))
    .groupBy(observations.status);
}

/**
 * The first `lim` matches of a search with the list's filters, in no order (migration 0220): the function
 * stops after `lim` rows, so counting a common word costs a thousand rows, not all of them.
 */
function searchMatches(s: Search, f: Filters, lim: number): SQL {
  const status = f.status && f.status !== 'all' ? f.status : null;
  return sql`app_observation_search(app_current_org(), ${s.pattern}, ${s.serial}::integer, ${status}::text,
    ${f.site_id ?? null}::uuid, ${f.type ?? null}::text, ${f.risk_level ?? null}::text, ${f.reportedBy ?? null}::uuid,
    ${f.from ?? null}::timestamp, ${f.to ?? null}::timestamp + interval '1 day', ${lim}::integer) m`;
}

/**
 * A search's matches, up to SEARCH_COUNT_CAP + 1 of them (more: `capped`), with their status (the tabs)
 * and sort keys: up to the cap they are every match, and the page is picked from them here, without
 * searching again or reading the matches back to sort them.
 */
async function searchCounts(tx: Tx, s: Search, f: Filters) {
  const res = await tx.execute<Match>(
    sql`select m.id, m.status, m.serial, extract(epoch from m.observed_local)::float8 as observed,
      extract(epoch from m.created_at)::float8 as created from ${searchMatches(s, f, SEARCH_COUNT_CAP + 1)}`,
  );
  const byStatus = new Map<ObservationStatus, number>();
  for (const m of res.rows) byStatus.set(m.status, (byStatus.get(m.status) ?? 0) + 1);
  const rows = [...byStatus].map(([status, n]) => ({ status, n }));
  return { rows, found: res.rows.length, capped: res.rows.length > SEARCH_COUNT_CAP, matches: res.rows };
}

type Match = { id: string; status: ObservationStatus; serial: number; observed: number; created: number };

/** The ids of a page of `matches` in the list's order (observationOrder's, on the function's columns). */
function pageOfMatches(matches: Match[], q: Sort, limit: number, offset: number): string[] {
  const sign = q.direction === 'asc' ? 1 : -1;
  const key = (m: Match) => (q.sort === 'serial' ? 0 : q.sort === 'created_at' ? m.created : m.observed);
  return [...matches]
    .sort((a, b) => sign * (key(a) - key(b) || a.serial - b.serial))
    .slice(offset, offset + limit)
    .map((m) => m.id);
}

/**
 * A page of a search. Up to SEARCH_COUNT_CAP matches (`matched`, counted with their sort keys): the page is
 * picked from them and read by id. More (a common word): the observations are read in the sort's index order,
 * keeping those that match (walkPage), which stops after about (offset + limit) × rows / matches rows: at
 * least one row in 200 matches (1,000 of the largest organisation's 200,000), so a first page reads a few
 * thousand at most.
 */
async function searchPage(tx: Tx, q: ObservationListQuery & Narrowing, s: Search, matched: Match[] | null, limit: number, offset: number) {
  let ids: string[];
  if (matched) {
    ids = pageOfMatches(matched, q, limit, offset);
  } else {
    const filters = and(sql`true`, ...filterConds(tableColumns, q));
    const order = sql.join(observationOrder(q), sql`, `);
    ids = await walkPage<string>(
      tx,
      (window) =>
        sql`select ${observations.id} as key, ${searchCondition(s)} as hit from ${observations} where ${filters} order by ${order} limit ${window}`,
      (window) => sql`select 1 from ${observations} where ${filters} limit ${window}`,
      limit,
      offset,
    );
  }
  if (ids.length === 0) return [];
  return pageQuery(tx)
    .where(inArray(observations.id, ids))
    .orderBy(...observationOrder(q));
}

/**
 * A page and its total. With keywords the total is exact up to SEARCH_COUNT_CAP; past it `totalCapped`
 * says it is a lower bound (at least the rows up to this page, and more after it when the page is full).
 */
export async function listObservations(tx: Tx, q: ObservationListQuery & Narrowing) {
  const { limit, offset } = pageWindow(q);
  const s = searchOf(q);
  if (s) {
    const { found, capped, matches } = await searchCounts(tx, s, q);
    if (!capped && offset >= found) return { observations: [], total: found, totalCapped: false };
    const rows = await searchPage(tx, q, s, capped ? null : matches, limit, offset);
    return { observations: await toItems(tx, rows), ...searchTotal(found, capped, offset, limit, rows.length) };
  }
  const byStatus = await countsByStatus(tx, q);
  const total = byStatus.reduce((sum, r) => sum + Number(r.n), 0);
  // Past the last row there is nothing to read: a deep page number costs no scan.
  if (offset >= total) return { observations: [], total, totalCapped: false };
  const rows = await pageQuery(tx)
    .where(and(...filterConds(tableColumns, q)))
    .orderBy(...observationOrder(q))
    .limit(limit)
    .offset(offset);
  return { observations: await toItems(tx, rows), total, totalCapped: false };
}

/**
 * The first `limit` rows the filters select, always by collecting the matches (never the in-order walk a
 * search page may take): the reference the plans test holds a page to. The export reads observations/export.ts.
 */
export async function allObservations(tx: Tx, q: ObservationListQuery & Narrowing, limit: number): Promise<ObservationListItem[]> {
  const rows = await pageQuery(tx)
    .where(observationWhere(q))
    .orderBy(...observationOrder(q))
    .limit(limit);
  return toItems(tx, rows);
}

export async function statusCounts(tx: Tx, f: Filters): Promise<ObservationStatusCounts> {
  const counts = { all: 0, open: 0, in_progress: 0, completed: 0, closed: 0, overdue: 0 };
  const s = searchOf(f);
  const found = s ? await searchCounts(tx, s, { ...f, status: 'all' }) : null;
  for (const r of found?.rows ?? (await countsByStatus(tx, { ...f, status: 'all' }))) {
    counts[r.status] = Number(r.n);
    counts.all += Number(r.n);
  }
  // Past the cap every count is a lower bound, and none says more than the cap.
  if (found?.capped) for (const k of Object.keys(counts) as Array<keyof typeof counts>) counts[k] = Math.min(counts[k], SEARCH_COUNT_CAP);
  return { counts, counts_capped: found?.capped ?? false };
}

/* ---------------------------------------------------------------- what the forms offer */

export async function hazardTypes(tx: Tx): Promise<ObservationHazardTypes> {
  const cats = await tx
    .select({ id: categories.id, name: categories.name, type: categories.type })
    .from(categories)
    .where(and(eq(categories.module, 'observations'), eq(categories.active, true)))
    .orderBy(asc(sql`lower(${categories.name})`));
  const subs = cats.length
    ? await tx
        .select({ id: subCategories.id, name: subCategories.name, categoryId: subCategories.categoryId })
        .from(subCategories)
        .where(
          and(
            inArray(
              subCategories.categoryId,
              cats.map((c) => c.id),
            ),
            eq(subCategories.active, true),
          ),
        )
        .orderBy(asc(sql`lower(${subCategories.name})`))
    : [];
  return {
    types: OBSERVATION_TYPES.map((type) => ({
      type,
      categories: cats
        .filter((c) => c.type === type)
        .map((c) => ({
          id: c.id,
          name: c.name,
          sub_categories: subs.filter((s) => s.categoryId === c.id).map((s) => ({ id: s.id, name: s.name })),
        })),
    })),
  };
}

/** What the staff form offers; without people for a guest, who raises no actions and sees no staff list. */
export async function formData(tx: Tx, withPeople = true): Promise<ObservationFormData> {
  const siteRows = await tx
    .select({ id: sites.id, name: sites.name, time_zone: sites.timeZone })
    .from(sites)
    .where(eq(sites.isActive, true))
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id));
  const names = await siteFullNames(tx, true);
  const actionCats = await tx
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(and(eq(categories.module, 'actions'), eq(categories.active, true)))
    .orderBy(asc(sql`lower(${categories.name})`));
  const people = withPeople
    ? await tx
        .select({ id: users.id, full_name: users.fullName, email: users.email })
        .from(users)
        .where(and(eq(users.status, 'Active'), eq(users.isGuest, false), eq(users.isPlatformAdmin, false)))
        .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id))
    : [];
  return {
    sites: siteRows.map((s) => ({
      ...s,
      nodes: names
        .filter((n) => n.site_id === s.id && n.level !== 'site')
        .map((n) => ({ id: n.id, level: n.level as 'division' | 'department' | 'unit', full_name: n.full_name })),
    })),
    types: (await hazardTypes(tx)).types,
    risk_levels: [...OBSERVATION_RISK_LEVELS],
    control_types: [...CONTROL_TYPES],
    action_categories: actionCats,
    users: people,
  };
}

/** The guest form: the organisation's name, its active sites, the types and risk levels. No people. */
export async function guestFormData(tx: Tx): Promise<ObservationGuestFormData> {
  const [org] = await tx
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  const siteRows = await tx
    .select({ id: sites.id, name: sites.name, time_zone: sites.timeZone })
    .from(sites)
    .where(eq(sites.isActive, true))
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id));
  return {
    organization: { name: org?.name ?? '' },
    sites: siteRows,
    types: [...OBSERVATION_TYPES],
    risk_levels: [...OBSERVATION_RISK_LEVELS],
  };
}

export const STATUS_TABS = ['all', ...OBSERVATION_STATUSES] as const;
