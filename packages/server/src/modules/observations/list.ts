import {
  CONTROL_TYPES,
  OBSERVATION_RISK_LEVELS,
  OBSERVATION_STATUSES,
  OBSERVATION_TYPES,
  formatObservationSerial,
  parseObservationSerial,
  type ObservationCountsQueryInput,
  type ObservationFormData,
  type ObservationGuestFormData,
  type ObservationHazardTypes,
  type ObservationListItem,
  type ObservationListQuery,
  type ObservationStatusCounts,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { actionStatusesOf } from '../actions/service.js';
import { categories, subCategories } from '../categories/read.js';
import { siteFullNames } from '../sites/service.js';
import { siteNodes, sites } from '../sites/read.js';
import { observationAttachments, observationDayCounts, observations } from './tables.js';
import { toLocalText } from './view.js';

/** Set by the server, never by the query: a guest's lists hold only the reports it made (platform/auth/guests.ts). */
export type Narrowing = { reportedBy?: string };
type Filters = Omit<ObservationCountsQueryInput, 'status'> & { status?: ObservationListQuery['status'] } & Narrowing;

const reporter = alias(users, 'reporter');

/** The WHERE of the list, the export and the tab counts: the same filters give the same rows. */
function whereOf(f: Filters): SQL | undefined {
  const conds: Array<SQL | undefined> = [];
  if (f.reportedBy) conds.push(eq(observations.reporterId, f.reportedBy));
  if (f.status && f.status !== 'all') conds.push(eq(observations.status, f.status));
  if (f.site_id) conds.push(eq(observations.siteId, f.site_id));
  if (f.type) conds.push(eq(observations.type, f.type));
  if (f.risk_level) conds.push(eq(observations.riskLevel, f.risk_level));
  // Local dates of the sites, both ends included.
  if (f.from) conds.push(sql`${observations.observedLocal} >= ${f.from}::timestamp`);
  if (f.to) conds.push(sql`${observations.observedLocal} < ${f.to}::timestamp + interval '1 day'`);
  const search = f.search?.trim();
  if (search) {
    const p = searchPattern(search);
    const serial = parseObservationSerial(search);
    conds.push(sql`(
      ${serial !== null ? sql`${observations.serial} = ${serial} or ` : sql``}
      ${observations.description} ilike ${p} or ${observations.comment} ilike ${p}
      or ${sites.name} ilike ${p} or ${categories.name} ilike ${p}
      or (not ${observations.anonymous} and (${reporter.fullName} ilike ${p} or ${observations.reporterName} ilike ${p}))
    )`);
  }
  return and(...conds);
}

function baseQuery(tx: Tx) {
  return tx
    .select({
      o: observations,
      siteName: sites.name,
      categoryName: categories.name,
      nodeName: siteNodes.name,
      reporterName: reporter.fullName,
    })
    .from(observations)
    .innerJoin(sites, eq(sites.id, observations.siteId))
    .leftJoin(categories, eq(categories.id, observations.categoryId))
    .leftJoin(siteNodes, eq(siteNodes.id, observations.siteNodeId))
    .leftJoin(reporter, eq(reporter.id, observations.reporterId));
}

function orderOf(q: Pick<ObservationListQuery, 'sort' | 'direction'>) {
  const dir = q.direction === 'asc' ? asc : desc;
  if (q.sort === 'serial') return [dir(observations.serial)];
  if (q.sort === 'created_at') return [dir(observations.createdAt), dir(observations.serial)];
  return [dir(observations.observedLocal), dir(observations.serial)];
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['where']>>[number];

async function toItems(tx: Tx, rows: Row[]): Promise<ObservationListItem[]> {
  const ids = rows.map((r) => r.o.id);
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
  return rows.map(({ o, siteName, categoryName, nodeName, reporterName }) => {
    const acts = statuses.get(o.id) ?? [];
    return {
      id: o.id,
      serial: o.serial,
      serial_label: formatObservationSerial(o.serial),
      type: o.type,
      category: o.categoryId && categoryName ? { id: o.categoryId, name: categoryName } : null,
      description: o.description,
      site: { id: o.siteId, name: siteName },
      site_node_name: nodeName ?? null,
      observed_at: toLocalText(o.observedLocal),
      risk_level: o.riskLevel,
      status: o.status,
      action_required: o.actionRequired,
      reporter_name: o.anonymous ? null : (reporterName ?? o.reporterName ?? null),
      source: o.source,
      actions_total: acts.length,
      actions_done: acts.filter((s) => s === 'completed' || s === 'closed').length,
      attachments_count: fileCounts.get(o.id) ?? 0,
      created_at: o.createdAt.toISOString(),
    };
  });
}

/**
 * The rows the filters count, joined to what the keyword search reads only when there is a search: every
 * observation has its site (not null, foreign key) and the left joins add no rows, so without keywords
 * the count reads the observations' own indexes and nothing else.
 */
function countedRows<T extends Parameters<Tx['select']>[0]>(tx: Tx, fields: NonNullable<T>, f: Filters) {
  const rows = tx.select(fields).from(observations);
  if (!f.search?.trim()) return rows.$dynamic();
  return rows
    .innerJoin(sites, eq(sites.id, observations.siteId))
    .leftJoin(categories, eq(categories.id, observations.categoryId))
    .leftJoin(reporter, eq(reporter.id, observations.reporterId))
    .$dynamic();
}

/**
 * The filters the day counts (migration 0130) answer: none, a status, local dates. Others count rows.
 * Returns the WHERE over observation_day_counts, or null when the filters need the rows.
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

export async function listObservations(tx: Tx, q: ObservationListQuery & Narrowing) {
  const where = whereOf(q);
  const byDay = dayCountsWhere(q);
  const [total] =
    byDay !== null
      ? await tx.select({ n: daySum }).from(observationDayCounts).where(byDay)
      : await countedRows(tx, { n: count() }, q).where(where);
  const { limit, offset } = pageWindow(q);
  const rows = await baseQuery(tx)
    .where(where)
    .orderBy(...orderOf(q))
    .limit(limit)
    .offset(offset);
  return { observations: await toItems(tx, rows), total: Number(total?.n ?? 0) };
}

/** Every row the filters select, for the Excel export (capped: an export is not a backup). */
export async function allObservations(tx: Tx, q: ObservationListQuery & Narrowing, cap = 20_000): Promise<ObservationListItem[]> {
  const rows = await baseQuery(tx)
    .where(whereOf(q))
    .orderBy(...orderOf(q))
    .limit(cap);
  return toItems(tx, rows);
}

export async function statusCounts(tx: Tx, f: Filters): Promise<ObservationStatusCounts> {
  const byDay = dayCountsWhere({ ...f, status: 'all' });
  const rows =
    byDay !== null
      ? await tx
          .select({ status: observationDayCounts.status, n: daySum })
          .from(observationDayCounts)
          .where(byDay)
          .groupBy(observationDayCounts.status)
      : await countedRows(tx, { status: observations.status, n: count() }, f)
          .where(whereOf({ ...f, status: 'all' }))
          .groupBy(observations.status);
  const counts = { all: 0, open: 0, in_progress: 0, completed: 0, closed: 0, overdue: 0 };
  for (const r of rows) {
    counts[r.status] = Number(r.n);
    counts.all += Number(r.n);
  }
  return { counts };
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
