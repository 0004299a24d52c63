import {
  can,
  SEARCH_COUNT_CAP,
  searchTotal,
  siLocalDateTime,
  siSerial,
  siteFullName,
  type SiCreate,
  type SiListItem,
  type SiListQuery,
  type SiResponse,
} from '@bulwark/domain';
import { and, asc, count, desc, eq, gte, ilike, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordAudit } from '../../platform/audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { pageWindow, searchPattern } from '../../platform/http/list.js';
import { actionsOfSource, createActionsFor } from '../actions/service.js';
import { siSchedules, safetyInteractionCounts, safetyInteractions, siBehaviours, siCounters, siParticipants } from './tables.js';
import { arrayParam, walkPage } from '../search-walk.js';
import { areaNames, siteRefs, type SiteRef } from './sites.js';
import { siteNodes, sites } from '../sites/read.js';

type Row = typeof safetyInteractions.$inferSelect;
const V = 'safetyInteractions.validation';

/** The PostgreSQL error under a driver or ORM wrapper. */
export function pgError(err: unknown): { code?: string; constraint?: string } {
  let e: unknown = err;
  for (let i = 0; i < 3 && e && typeof e === 'object'; i += 1) {
    const rec = e as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof rec.code === 'string')
      return { code: rec.code, constraint: typeof rec.constraint === 'string' ? rec.constraint : undefined };
    e = rec.cause;
  }
  return {};
}

const invalid = (fields: Record<string, string>) => new AppError('validation_failed', { fields });

/* ---------------------------------------------------------------- rights */

/**
 * Changing an interaction: anyone with Observation update, or its observer (or whoever recorded it)
 * holding Observation create, so a leader can finish and correct their own conversations.
 */
export function mayEdit(p: Principal, row: Pick<Row, 'observerId' | 'createdBy'>): boolean {
  if (can(p.access, 'Observation', 'update')) return true;
  const own = row.observerId === p.userId || row.createdBy === p.userId;
  return own && can(p.access, 'Observation', 'create');
}

export function mayDelete(p: Principal): boolean {
  return can(p.access, 'Observation', 'delete');
}

/* ---------------------------------------------------------------- checks */

/** Active members among these ids, with their names (row-level security hides other organisations). */
export async function activeMembers(tx: Tx, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, fullName: users.fullName })
    .from(users)
    .where(and(inArray(users.id, unique), eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)));
  return new Map(rows.map((r) => [r.id, r.fullName]));
}

/** Active members whose names or e-mails match, for the people pickers (first 50). */
export async function peopleOptions(tx: Tx, search: string | undefined) {
  const p = search ? searchPattern(search) : null;
  const rows = await tx
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.status, 'Active'),
        eq(users.isPlatformAdmin, false),
        eq(users.isGuest, false),
        p ? or(ilike(users.fullName, p), ilike(users.email, p)) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id))
    .limit(50);
  return rows.map((u) => ({ id: u.id, full_name: u.fullName, email: u.email }));
}

async function nextSerial(tx: Tx): Promise<number> {
  const [row] = await tx
    .insert(siCounters)
    .values({ lastSerial: 1 })
    .onConflictDoUpdate({ target: siCounters.organizationId, set: { lastSerial: sql`${siCounters.lastSerial} + 1` } })
    .returning({ n: siCounters.lastSerial });
  return row!.n;
}

type Checked = { site: SiteRef; observerId: string; people: Array<{ userId: string | null; name: string }> };

/**
 * The rules that need the database: an active site and an area of it, members who are active, a time
 * not in the future at the site, and a plan of the same site not fulfilled by another interaction.
 */
async function checkInput(tx: Tx, p: Principal, v: SiCreate, selfId: string | null, now: Date): Promise<Checked> {
  const fields: Record<string, string> = {};
  const [site] = (await siteRefs(tx, [v.site_id], true)).values();
  if (!site) throw invalid({ site_id: `${V}.siteUnknown` });
  if (v.area_id && !(await areaNames(tx)).get(v.area_id)?.startsWith(`${site.id}:`)) fields['area_id'] = `${V}.area`;
  if (v.held_at > siLocalDateTime(site.time_zone, now)) fields['held_at'] = `${V}.heldInFuture`;
  const observerId = v.observer_id ?? p.userId;
  const memberIds = v.participants.map((x) => x.user_id).filter((x): x is string => x !== null);
  const members = await activeMembers(tx, [observerId, ...memberIds]);
  if (!members.has(observerId)) fields['observer_id'] = `${V}.userUnknown`;
  v.participants.forEach((x, i) => {
    if (x.user_id && !members.has(x.user_id)) fields[`participants.${i}.user_id`] = `${V}.userUnknown`;
  });
  if (v.schedule_id) {
    const [plan] = await tx.select({ siteId: siSchedules.siteId }).from(siSchedules).where(eq(siSchedules.id, v.schedule_id));
    if (!plan) fields['schedule_id'] = `${V}.scheduleUnknown`;
    else if (plan.siteId !== v.site_id) fields['schedule_id'] = `${V}.scheduleOtherSite`;
    else {
      const [other] = await tx
        .select({ id: safetyInteractions.id })
        .from(safetyInteractions)
        .where(and(eq(safetyInteractions.scheduleId, v.schedule_id), selfId ? sql`${safetyInteractions.id} <> ${selfId}` : undefined));
      if (other) fields['schedule_id'] = `${V}.scheduleTaken`;
    }
  }
  if (Object.keys(fields).length > 0) throw invalid(fields);
  const people = v.participants.map((x) => ({ userId: x.user_id, name: x.user_id ? members.get(x.user_id)! : x.name! }));
  return { site, observerId, people };
}

async function writeLists(tx: Tx, interactionId: string, v: SiCreate, people: Checked['people']) {
  await tx.delete(siParticipants).where(eq(siParticipants.interactionId, interactionId));
  await tx.delete(siBehaviours).where(eq(siBehaviours.interactionId, interactionId));
  if (people.length > 0) {
    await tx.insert(siParticipants).values(people.map((x, position) => ({ interactionId, position, userId: x.userId, name: x.name })));
  }
  const behaviours = [
    ...v.safe_behaviours.map((b, position) => ({ interactionId, kind: 'safe' as const, position, topic: b.topic, note: b.note })),
    ...v.at_risk_behaviours.map((b, position) => ({ interactionId, kind: 'at_risk' as const, position, topic: b.topic, note: b.note })),
  ];
  if (behaviours.length > 0) await tx.insert(siBehaviours).values(behaviours);
}

/** A plan taken at the same moment by another interaction is the same refusal the pre-check gives. */
async function guardSchedule<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const { code, constraint } = pgError(err);
    if (code === '23505' && constraint === 'safety_interactions_schedule') throw invalid({ schedule_id: `${V}.scheduleTaken` });
    throw err;
  }
}

function columnsOf(v: SiCreate, c: Checked) {
  return {
    observerId: c.observerId,
    siteId: v.site_id,
    areaId: v.area_id,
    location: v.location,
    // The local time read in the site's zone: PostgreSQL does the conversion, daylight saving included.
    heldAt: sql`(${v.held_at}::timestamp at time zone ${c.site.time_zone})`,
    heldOn: v.held_at.slice(0, 10),
    durationMinutes: v.duration_minutes,
    crew: v.crew,
    topics: v.topics,
    recognitionGiven: v.recognition_given,
    comment: v.comment,
    scheduleId: v.schedule_id,
  };
}

/** What the audit trail keeps of the input (agreed actions are recorded by the actions module). */
function auditOf(v: SiCreate) {
  const { actions, ...rest } = v;
  return { ...rest, actions_added: actions.length };
}

export type Written = { interaction: SiResponse; afterCommit: () => Promise<void> };

export async function createInteraction(tx: Tx, deps: AppDeps, p: Principal, v: SiCreate, now = new Date()): Promise<Written> {
  const checked = await checkInput(tx, p, v, null, now);
  const serial = await nextSerial(tx);
  const [row] = await guardSchedule(() =>
    tx
      .insert(safetyInteractions)
      .values({
        ...columnsOf(v, checked),
        serial,
        status: v.status,
        createdBy: p.userId,
        completedAt: v.status === 'completed' ? now : null,
      })
      .returning({ id: safetyInteractions.id }),
  );
  const id = row!.id;
  await writeLists(tx, id, v, checked.people);
  const created = await createActionsFor(tx, deps, p, { type: 'safety_interaction', id, siteId: v.site_id }, v.actions);
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'create',
    entity: 'SafetyInteraction',
    entityId: id,
    changes: { serial: siSerial(serial), ...auditOf(v) },
  });
  return { interaction: await getInteraction(tx, p, id), afterCommit: created.afterCommit };
}

async function lockRow(tx: Tx, id: string): Promise<Row> {
  const [row] = await tx.select().from(safetyInteractions).where(eq(safetyInteractions.id, id)).for('update');
  if (!row) throw new AppError('not_found');
  return row;
}

export async function updateInteraction(tx: Tx, deps: AppDeps, p: Principal, id: string, v: SiCreate, now = new Date()): Promise<Written> {
  const current = await lockRow(tx, id);
  if (!mayEdit(p, current)) throw new AppError('forbidden', { messageKey: `${V}.notAllowed` });
  if (current.status === 'completed' && v.status === 'draft') throw invalid({ status: `${V}.backToDraft` });
  const before = await getInteraction(tx, p, id);
  const checked = await checkInput(tx, p, v, id, now);
  await guardSchedule(() =>
    tx
      .update(safetyInteractions)
      .set({
        ...columnsOf(v, checked),
        status: v.status,
        updatedAt: now,
        completedAt: current.completedAt ?? (v.status === 'completed' ? now : null),
      })
      .where(eq(safetyInteractions.id, id)),
  );
  await writeLists(tx, id, v, checked.people);
  const created = await createActionsFor(tx, deps, p, { type: 'safety_interaction', id, siteId: v.site_id }, v.actions);
  const after = auditOf(v);
  const was: Record<string, unknown> = {
    observer_id: before.observer?.id ?? null,
    site_id: before.site.id,
    area_id: before.area?.id ?? null,
    location: before.location,
    held_at: before.held_at,
    duration_minutes: before.duration_minutes,
    crew: before.crew,
    topics: before.topics,
    recognition_given: before.recognition_given,
    comment: before.comment,
    status: before.status,
    schedule_id: before.schedule?.id ?? null,
    participants: before.participants.map((x) => ({ user_id: x.user?.id ?? null, name: x.user ? null : x.name })),
    safe_behaviours: before.safe_behaviours,
    at_risk_behaviours: before.at_risk_behaviours,
  };
  const changes: Record<string, unknown> = Object.fromEntries(
    Object.entries(after)
      .filter(([k, val]) => k !== 'actions_added' && JSON.stringify(was[k] ?? null) !== JSON.stringify(val ?? null))
      .map(([k, val]) => [k, { from: was[k] ?? null, to: val }]),
  );
  if (v.actions.length > 0) changes['actions_added'] = v.actions.length;
  await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'SafetyInteraction', entityId: id, changes });
  return { interaction: await getInteraction(tx, p, id), afterCommit: created.afterCommit };
}

/** Deletes an interaction. One with agreed actions stays: the actions would lose where they came from. */
export async function deleteInteraction(tx: Tx, p: Principal, id: string): Promise<void> {
  const current = await lockRow(tx, id);
  const agreed = await actionsOfSource(tx, 'safety_interaction', id);
  if (agreed.length > 0) throw new AppError('conflict', { messageKey: `${V}.hasActions` });
  await tx.delete(safetyInteractions).where(eq(safetyInteractions.id, id));
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'delete',
    entity: 'SafetyInteraction',
    entityId: id,
    changes: { serial: siSerial(current.serial) },
  });
}

/* ---------------------------------------------------------------- reading */

export async function getInteraction(tx: Tx, p: Principal, id: string): Promise<SiResponse> {
  const [row] = await tx.select().from(safetyInteractions).where(eq(safetyInteractions.id, id));
  if (!row) throw new AppError('not_found');
  const [site] = (await siteRefs(tx, [row.siteId])).values();
  const people = await tx.select().from(siParticipants).where(eq(siParticipants.interactionId, id)).orderBy(asc(siParticipants.position));
  const behaviours = await tx.select().from(siBehaviours).where(eq(siBehaviours.interactionId, id)).orderBy(asc(siBehaviours.position));
  const names = await namesOf(tx, [row.observerId, row.createdBy, ...people.map((x) => x.userId)]);
  const [plan] = row.scheduleId
    ? await tx
        .select({ id: siSchedules.id, plannedDate: siSchedules.plannedDate })
        .from(siSchedules)
        .where(eq(siSchedules.id, row.scheduleId))
    : [];
  const areas = row.areaId ? await areaNames(tx) : new Map<string, string>();
  const pick = (kind: 'safe' | 'at_risk') => behaviours.filter((b) => b.kind === kind).map((b) => ({ topic: b.topic, note: b.note }));
  return {
    id: row.id,
    serial: row.serial,
    status: row.status,
    observer: personOf(names, row.observerId),
    site: site!,
    area: row.areaId ? { id: row.areaId, full_name: fullNameOf(areas.get(row.areaId)) } : null,
    location: row.location,
    held_at: siLocalDateTime(site!.time_zone, row.heldAt),
    duration_minutes: row.durationMinutes,
    participants: people.map((x) => ({ user: personOf(names, x.userId), name: x.name })),
    crew: row.crew,
    topics: row.topics,
    safe_behaviours: pick('safe'),
    at_risk_behaviours: pick('at_risk'),
    recognition_given: row.recognitionGiven,
    comment: row.comment,
    schedule: plan ? { id: plan.id, planned_date: plan.plannedDate } : null,
    actions: await actionsOfSource(tx, 'safety_interaction', id),
    created_by: personOf(names, row.createdBy),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    can_edit: mayEdit(p, row),
    can_delete: mayDelete(p),
  };
}

/** Area names are kept as "siteId:full name" so one map answers "is it an area of this site" too. */
function fullNameOf(entry: string | undefined): string {
  return entry ? entry.slice(entry.indexOf(':') + 1) : '';
}

async function namesOf(tx: Tx, ids: ReadonlyArray<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  const rows = await tx.select({ id: users.id, fullName: users.fullName }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r.fullName]));
}

function personOf(names: Map<string, string>, id: string | null) {
  return id && names.has(id) ? { id, full_name: names.get(id)! } : null;
}

export type ListFilters = Omit<SiListQuery, 'page' | 'per_page' | 'export_to_excel'>;

/**
 * The list's filters. Keywords (the serial as shown, crew, location, comment, the observer's name, the
 * people spoken with, the behaviours' notes) go through app_si_matches (migration 0212): ILIKE cannot
 * use an index under row-level security, the function's answer (ids) can.
 */
export function listWhere(q: ListFilters): SQL | undefined {
  const parts: SQL[] = [];
  if (q.site_id) parts.push(eq(safetyInteractions.siteId, q.site_id));
  if (q.observer_id) parts.push(eq(safetyInteractions.observerId, q.observer_id));
  if (q.status) parts.push(eq(safetyInteractions.status, q.status));
  if (q.topic) parts.push(sql`${q.topic} = any(${safetyInteractions.topics})`);
  if (q.from) parts.push(gte(safetyInteractions.heldOn, q.from));
  if (q.to) parts.push(lte(safetyInteractions.heldOn, q.to));
  if (q.search) {
    parts.push(sql`${safetyInteractions.id} = any(array(select app_si_matches(app_current_org(), ${searchPattern(q.search)})))`);
  }
  return parts.length > 0 ? and(...parts) : undefined;
}

/** How many interactions match: from safety_interaction_counts when it keeps the filters, else counted through the indexes. */
export async function countInteractions(tx: Tx, q: ListFilters): Promise<number> {
  if (q.observer_id || q.from || q.to || q.search) {
    const [row] = await tx.select({ n: count() }).from(safetyInteractions).where(listWhere(q));
    return Number(row?.n ?? 0);
  }
  const [row] = await tx
    .select({ n: sql<number>`coalesce(sum(${safetyInteractionCounts.n}), 0)::integer` })
    .from(safetyInteractionCounts)
    .where(
      and(
        eq(safetyInteractionCounts.topic, q.topic ?? ''),
        q.site_id ? eq(safetyInteractionCounts.siteId, q.site_id) : undefined,
        q.status ? eq(safetyInteractionCounts.status, q.status) : undefined,
      ),
    );
  return Number(row?.n ?? 0);
}

/**
 * Everything a list row shows beyond the interaction's own columns (site, observer, people, behaviour
 * counts, the area's full name), for a page of interactions in one statement.
 */
async function listDetails(tx: Tx, ids: string[]) {
  const i = safetyInteractions;
  const p = siParticipants;
  const b = siBehaviours;
  // Three levels under a site at most: a unit's parent is a department, whose parent is a division.
  const parent = alias(siteNodes, 'parent');
  const grand = alias(siteNodes, 'grand');
  const tally = (kind: string) =>
    sql<number>`(select count(*) from ${b} where ${b.interactionId} = ${i.id} and ${b.kind} = ${kind})::integer`;
  return tx
    .select({
      id: i.id,
      siteName: sites.name,
      timeZone: sites.timeZone,
      observerName: users.fullName,
      people: sql<string[]>`array(select ${p.name} from ${p} where ${p.interactionId} = ${i.id} order by ${p.position})`,
      safe: tally('safe'),
      atRisk: tally('at_risk'),
      area: siteNodes.name,
      areaParent: parent.name,
      areaGrand: grand.name,
    })
    .from(i)
    .innerJoin(sites, and(eq(sites.organizationId, i.organizationId), eq(sites.id, i.siteId)))
    .leftJoin(users, and(eq(users.organizationId, i.organizationId), eq(users.id, i.observerId)))
    .leftJoin(siteNodes, and(eq(siteNodes.organizationId, i.organizationId), eq(siteNodes.id, i.areaId)))
    .leftJoin(parent, and(eq(parent.organizationId, siteNodes.organizationId), eq(parent.id, siteNodes.parentId)))
    .leftJoin(grand, and(eq(grand.organizationId, parent.organizationId), eq(grand.id, parent.parentId)))
    .where(inArray(i.id, ids));
}

export async function toListItems(tx: Tx, rows: Row[]): Promise<SiListItem[]> {
  if (rows.length === 0) return [];
  const details = new Map(
    (
      await listDetails(
        tx,
        rows.map((r) => r.id),
      )
    ).map((d) => [d.id, d]),
  );
  // A list reads without a transaction (route option database: 'read'): an interaction removed between
  // the page and this statement is left out rather than shown half.
  return rows.flatMap((r) => {
    const d = details.get(r.id);
    if (!d) return [];
    return [
      {
        id: r.id,
        serial: r.serial,
        status: r.status,
        observer: r.observerId && d.observerName !== null ? { id: r.observerId, full_name: d.observerName } : null,
        site: { id: r.siteId, name: d.siteName, time_zone: d.timeZone },
        area: r.areaId
          ? { id: r.areaId, full_name: d.area === null ? '' : siteFullName([d.siteName, d.areaGrand, d.areaParent, d.area]) }
          : null,
        held_at: siLocalDateTime(d.timeZone, r.heldAt),
        duration_minutes: r.durationMinutes,
        people: d.people,
        crew: r.crew,
        topics: r.topics,
        safe_count: d.safe,
        at_risk_count: d.atRisk,
        recognition_given: r.recognitionGiven,
      },
    ];
  });
}

const newestFirst = [desc(safetyInteractions.heldAt), desc(safetyInteractions.serial)];

/**
 * A page of rows: the serials first, from an index whose entries carry every filter (an index-only
 * scan however deep the page), then only those rows.
 */
async function pageRows(tx: Tx, q: ListFilters, limit: number, offset: number): Promise<Row[]> {
  const page = tx
    .select({ serial: safetyInteractions.serial })
    .from(safetyInteractions)
    .where(listWhere(q))
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset)
    .as('page');
  const rows = await tx
    .select({ row: safetyInteractions })
    .from(page)
    .innerJoin(safetyInteractions, eq(safetyInteractions.serial, page.serial))
    .orderBy(...newestFirst);
  return rows.map((r) => r.row);
}

/* ---------------------------------------------------------------- keyword search (issue 13) */

/**
 * A search counts at most SEARCH_COUNT_CAP + 1 matches, and how depends on how common the words are.
 * The trigram indexes answer a rare word at once, but a common one (95% of interactions have a behaviour
 * noted "exclusion zone") makes the index's bitmap hold every match before the first row is read: 130 ms
 * for the behaviours alone. Reading the list in order and testing each interaction (its text, its
 * observer, its people and behaviours by key) finds a thousand matches of a common word after a few
 * thousand rows instead. The first WALK_PROBE rows say which: at least WALK_DENSITY of them matching, the
 * walk counts on (up to WALK_BUDGET rows), otherwise app_si_search (migration 0220) counts.
 */
const WALK_PROBE = 300;
const WALK_DENSITY = 0.2;
const WALK_BUDGET = 8_000;

/** Whether the interaction matches the keywords; the row is `safety_interactions`, joined to walkMatches' p and b. */
function walkHit(pattern: string): SQL {
  const t = safetyInteractions;
  return sql`(app_si_serial(${t.serial}) ilike ${pattern} or ${t.crew} ilike ${pattern} or ${t.location} ilike ${pattern}
    or ${t.comment} ilike ${pattern}
    or ${t.observerId} = any(array(select ${users.id} from ${users} where ${users.fullName} ilike ${pattern}))
    or p.hit or b.hit)`;
}

/**
 * The interactions of the filters newest first, each with `hit`, as the list reads them (its indexes, in
 * order). A person or a behaviour is looked up per interaction by key: a lateral join with a limit, never
 * a hash of every person of the organisation.
 */
function walkRows(q: ListFilters, pattern: string, columns: SQL, limit: number): SQL {
  const t = safetyInteractions;
  return sql`select ${columns}, ${walkHit(pattern)} as hit from ${t}
    left join lateral (select true as hit from ${siParticipants} x where x.interaction_id = ${t.id} and x.name ilike ${pattern} limit 1) p on true
    left join lateral (select true as hit from ${siBehaviours} y where y.interaction_id = ${t.id} and y.note ilike ${pattern} limit 1) b on true
    where ${listWhere({ ...q, search: undefined }) ?? sql`true`}
    order by ${t.heldAt} desc, ${t.serial} desc limit ${limit}`;
}

/** The first `lim` matches of the filters and keywords, in no order (app_si_search, migration 0220). */
function searchMatches(q: ListFilters, search: string, lim: number): SQL {
  return sql`app_si_search(app_current_org(), ${searchPattern(search)}, ${q.site_id ?? null}::uuid, ${q.observer_id ?? null}::uuid,
    ${q.status ?? null}::text, ${q.topic ?? null}::text, ${q.from ?? null}::date, ${q.to ?? null}::date, ${lim}::integer) m`;
}

/** How many interactions the search matches, up to SEARCH_COUNT_CAP + 1 (more: `capped`). */
async function searchCount(tx: Tx, q: ListFilters, search: string): Promise<{ found: number; capped: boolean; ids?: string[] }> {
  const pattern = searchPattern(search);
  const probe = await tx.execute<{ scanned: number; hits: number }>(
    sql`select count(*)::integer as scanned, (count(*) filter (where w.hit))::integer as hits
      from (${walkRows(q, pattern, sql`${safetyInteractions.serial}`, WALK_PROBE)}) w`,
  );
  const { scanned = 0, hits = 0 } = probe.rows[0] ?? {};
  // Fewer rows than the probe read: that was every interaction of the filters.
  if (scanned < WALK_PROBE) return { found: hits, capped: false };
  if (hits >= WALK_PROBE * WALK_DENSITY) {
    const walked = await tx.execute<{ n: number }>(
      sql`select count(*)::integer as n from (select 1 from (${walkRows(q, pattern, sql`${safetyInteractions.serial}`, WALK_BUDGET)}) w
        where w.hit limit ${SEARCH_COUNT_CAP + 1}) z`,
    );
    const n = walked.rows[0]?.n ?? 0;
    if (n > SEARCH_COUNT_CAP) return { found: n, capped: true };
  }
  const res = await tx.execute<{ ids: string[] | null }>(
    sql`select array_agg(m.id) as ids from ${searchMatches(q, search, SEARCH_COUNT_CAP + 1)}`,
  );
  const ids = res.rows[0]?.ids ?? [];
  return { found: ids.length, capped: ids.length > SEARCH_COUNT_CAP, ids };
}

/**
 * A search's page. Up to SEARCH_COUNT_CAP matches: the page read by their ids (`matched`, from the count,
 * or app_si_search's). More: the list in order, keeping the matches (a common word's page after a few
 * hundred rows).
 */
async function searchPageRows(
  tx: Tx,
  q: ListFilters,
  search: string,
  capped: boolean,
  matched: string[] | undefined,
  limit: number,
  offset: number,
): Promise<Row[]> {
  const t = safetyInteractions;
  if (capped) {
    const pattern = searchPattern(search);
    const serials = await walkPage<number>(
      tx,
      (window) => sql`select w.serial as key, w.hit from (${walkRows(q, pattern, sql`${t.serial}`, window)}) w`,
      (window) => sql`select 1 from ${t} where ${listWhere({ ...q, search: undefined }) ?? sql`true`} limit ${window}`,
      limit,
      offset,
    );
    if (serials.length === 0) return [];
    return tx
      .select()
      .from(t)
      .where(inArray(t.serial, serials))
      .orderBy(...newestFirst);
  }
  const rows = await tx
    .select({ row: t })
    .from(t)
    .where(
      matched
        ? sql`${t.id} = any(${arrayParam(matched)}::uuid[])`
        : sql`${t.id} = any(array(select m.id from ${searchMatches(q, search, SEARCH_COUNT_CAP + 1)}))`,
    )
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
  return rows.map((r) => r.row);
}

/**
 * One page of interactions, newest first, and the total. With keywords the total is exact up to
 * SEARCH_COUNT_CAP; past it `totalCapped` says it is a lower bound.
 */
export async function listInteractions(tx: Tx, q: SiListQuery): Promise<{ items: SiListItem[]; total: number; totalCapped: boolean }> {
  const { limit, offset } = pageWindow(q);
  const search = q.search?.trim();
  if (search) {
    const { found, capped, ids } = await searchCount(tx, q, search);
    const rows = capped || offset < found ? await searchPageRows(tx, q, search, capped, ids, limit, offset) : [];
    const { total, totalCapped } = searchTotal(found, capped, offset, limit, rows.length);
    return { items: await toListItems(tx, rows), total, totalCapped };
  }
  const rows = await pageRows(tx, q, limit, offset);
  return { items: await toListItems(tx, rows), total: await countInteractions(tx, q), totalCapped: false };
}
