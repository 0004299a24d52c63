import {
  PERMIT_LIST_DEFAULT_MONTHS,
  PERMIT_TAB_STATUSES,
  parsePermitSerial,
  type PermitCounts,
  type PermitCountsQuery,
  type PermitListItem,
  type PermitListQuery,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { siteNodes, sites } from '../sites/read.js';
import { areasOf } from './areas.js';
import { fromPgTimestamp } from './checks.js';
import { issuersOf, numberOf } from './record.js';
import { permitExtensions, permits, permitShares, permitTemplates, permitWorkers, workProfiles } from './tables.js';

type Filters = PermitCountsQuery & { tab?: PermitListQuery['tab'] };

/** Who reads the list: only their id matters (drafts, shares), so an export's job reads as its requester. */
export type Viewer = Pick<Principal, 'userId'>;

/** Drafts are seen by their requester and the people they were shared with (spec 000 §6); the rest by every reader. */
function visibleTo(viewer: Viewer): SQL {
  return sql`(${permits.status} <> 'draft' or ${permits.requesterId} = ${viewer.userId} or exists (
    select 1 from ${permitShares} s where s.organization_id = ${permits.organizationId} and s.permit_id = ${permits.id} and s.user_id = ${viewer.userId}))`;
}

/** The permit's date: its start at the site, or (a draft without one) its creation day. */
export const permitDate = sql`coalesce(${permits.startLocal}, ${permits.createdAt} at time zone 'UTC')`;

/** The WHERE of the list, the export and the counts: the same filters give the same rows. */
export function whereOf(viewer: Viewer, f: Filters): SQL | undefined {
  const conds: Array<SQL | undefined> = [visibleTo(viewer)];
  if (f.tab && f.tab !== 'all') conds.push(inArray(permits.status, [...PERMIT_TAB_STATUSES[f.tab]]));
  if (f.flag) conds.push(eq(permits.status, f.flag));
  if (f.site_id) conds.push(eq(permits.siteId, f.site_id));
  if (f.template_id) conds.push(eq(permits.templateId, f.template_id));
  if (f.from) conds.push(sql`${permitDate} >= ${f.from}::timestamp`);
  if (f.to) conds.push(sql`${permitDate} < ${f.to}::timestamp + interval '1 day'`);
  // The last six months unless a range is asked for.
  if (!f.from && !f.to) conds.push(sql`${permitDate} >= current_date - ${`${PERMIT_LIST_DEFAULT_MONTHS} months`}::interval`);
  const search = f.search?.trim();
  if (search) {
    const p = searchPattern(search);
    const serial = parsePermitSerial(search);
    conds.push(sql`(
      ${serial !== null ? sql`${permits.serial} = ${serial} or ` : sql``}
      ${permits.description} ilike ${p}
      or exists (select 1 from ${permitTemplates} t where t.organization_id = ${permits.organizationId} and t.id = ${permits.templateId} and t.name ilike ${p})
      or exists (select 1 from ${sites} s where s.organization_id = ${permits.organizationId} and s.id = ${permits.siteId} and s.name ilike ${p})
      or exists (select 1 from ${siteNodes} n where n.organization_id = ${permits.organizationId} and n.id = ${permits.siteNodeId} and n.name ilike ${p})
      or exists (select 1 from ${users} u where u.organization_id = ${permits.organizationId} and u.id = ${permits.requesterId} and u.full_name ilike ${p})
      or exists (select 1 from ${permitWorkers} pw join ${workProfiles} w on w.organization_id = pw.organization_id and w.id = pw.worker_id
        where pw.organization_id = ${permits.organizationId} and pw.permit_id = ${permits.id} and (w.name ilike ${p} or w.id_number ilike ${p}))
    )`);
  }
  return and(...conds);
}

export function orderOf(q: Pick<PermitListQuery, 'sort' | 'direction'>) {
  const dir = q.direction === 'asc' ? asc : desc;
  if (q.sort === 'number') return [dir(permits.serial)];
  if (q.sort === 'created_at') return [dir(permits.createdAt), dir(permits.serial)];
  return [sql`${permitDate} ${sql.raw(q.direction === 'asc' ? 'asc' : 'desc')}`, dir(permits.serial)];
}

export function baseQuery(tx: Tx) {
  return tx
    .select({
      o: permits,
      templateName: permitTemplates.name,
      siteName: sites.name,
      requesterName: users.fullName,
      // The sorted values as PostgreSQL prints them, to the microsecond: the export's keyset compares them exactly.
      dateText: sql<string>`${permitDate}::text`,
      createdText: sql<string>`${permits.createdAt}::text`,
    })
    .from(permits)
    .innerJoin(permitTemplates, eq(permitTemplates.id, permits.templateId))
    .leftJoin(sites, eq(sites.id, permits.siteId))
    .leftJoin(users, eq(users.id, permits.requesterId));
}

export type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['where']>>[number];

export async function toItems(tx: Tx, viewer: Viewer, rows: Row[]): Promise<PermitListItem[]> {
  const ids = rows.map((r) => r.o.id);
  const workerRows = ids.length
    ? await tx
        .select({ permitId: permitWorkers.permitId, name: workProfiles.name })
        .from(permitWorkers)
        .innerJoin(
          workProfiles,
          and(eq(workProfiles.organizationId, permitWorkers.organizationId), eq(workProfiles.id, permitWorkers.workerId)),
        )
        .where(inArray(permitWorkers.permitId, ids))
        .orderBy(asc(permitWorkers.position))
    : [];
  const extensionRows = ids.length
    ? await tx
        .select({ permitId: permitExtensions.permitId, state: permitExtensions.state })
        .from(permitExtensions)
        .where(inArray(permitExtensions.permitId, ids))
    : [];
  const shared = ids.length
    ? new Set(
        (
          await tx
            .select({ permitId: permitShares.permitId })
            .from(permitShares)
            .where(and(inArray(permitShares.permitId, ids), eq(permitShares.userId, viewer.userId)))
        ).map((s) => s.permitId),
      )
    : new Set<string>();
  const issuers = await issuersOf(tx, ids);
  const issuerIds = [...new Set([...issuers.values()].flat())];
  const names = new Map(
    issuerIds.length
      ? (await tx.select({ id: users.id, name: users.fullName }).from(users).where(inArray(users.id, issuerIds))).map((u) => [u.id, u.name])
      : [],
  );
  // By permit once, not filtered per row: an export's page holds a thousand permits.
  const workersOf = new Map<string, string[]>();
  for (const w of workerRows) {
    const names = workersOf.get(w.permitId);
    if (names) names.push(w.name);
    else workersOf.set(w.permitId, [w.name]);
  }
  const pending = new Set<string>();
  const approved = new Map<string, number>();
  for (const e of extensionRows) {
    if (e.state === 'pending') pending.add(e.permitId);
    if (e.state === 'approved') approved.set(e.permitId, (approved.get(e.permitId) ?? 0) + 1);
  }
  const areas = await areasOf(tx, [...new Set(rows.map((r) => r.o.siteId).filter((s): s is string => !!s))]);
  return rows.map(({ o, templateName, siteName, requesterName }) => ({
    id: o.id,
    number: numberOf(o),
    template: { id: o.templateId, name: templateName },
    status: o.status,
    requester: { id: o.requesterId ?? '', full_name: requesterName ?? '' },
    site: o.siteId && siteName ? { id: o.siteId, name: siteName } : null,
    area_name: areas.fullName(o.siteNodeId),
    start_at: fromPgTimestamp(o.startLocal),
    end_at: fromPgTimestamp(o.endLocal),
    description: o.description,
    worker_names: workersOf.get(o.id) ?? [],
    issuing_officers: (issuers.get(o.id) ?? []).map((u) => names.get(u) ?? ''),
    extension_pending: pending.has(o.id),
    extension_count: approved.get(o.id) ?? 0,
    shared_with_me: shared.has(o.id),
    created_at: o.createdAt.toISOString(),
  }));
}

export async function listPermits(tx: Tx, viewer: Viewer, q: PermitListQuery) {
  const where = whereOf(viewer, q);
  const [total] = await tx.select({ n: count() }).from(permits).where(where);
  const { limit, offset } = pageWindow(q);
  const rows = await baseQuery(tx)
    .where(where)
    .orderBy(...orderOf(q))
    .limit(limit)
    .offset(offset);
  return { permits: await toItems(tx, viewer, rows), total: Number(total?.n ?? 0) };
}

/** How many permits each tab and each flag holds for these filters. */
export async function permitCounts(tx: Tx, viewer: Viewer, f: PermitCountsQuery): Promise<PermitCounts> {
  const rows = await tx
    .select({ status: permits.status, n: count() })
    .from(permits)
    .where(whereOf(viewer, { ...f, flag: undefined, tab: 'all' }))
    .groupBy(permits.status);
  const by = new Map(rows.map((r) => [r.status, Number(r.n)]));
  const sum = (statuses: readonly string[]) => statuses.reduce((n, s) => n + (by.get(s as never) ?? 0), 0);
  return {
    all: sum([...by.keys()]),
    requested: sum(PERMIT_TAB_STATUSES.requested),
    drafts: sum(PERMIT_TAB_STATUSES.drafts),
    approved: sum(PERMIT_TAB_STATUSES.approved),
    revoked: sum(PERMIT_TAB_STATUSES.revoked),
    rejected: sum(PERMIT_TAB_STATUSES.rejected),
    closed: sum(PERMIT_TAB_STATUSES.closed),
    extended: sum(['extended']),
    overdue: sum(['overdue']),
    pending_closure: sum(['pending_closure']),
  };
}
