import { actionDateIn, translate, type ActionItem, type ActionSource, type ActionStatus, type ActionSummary } from '@bulwark/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { categories } from '../categories/read.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { sites } from '../sites/read.js';
import { mailAboutAction } from './notify.js';
import { describeSources, notifySources, type SourceChange } from './sources.js';
import { actions, actionSerials } from './tables.js';

export { registerActionSource, type ActionSourceHooks, type SourceReference } from './sources.js';

/** What creating or changing actions needs from the app. */
export type ActionsDeps = Pick<AppDeps, 'config' | 'mail' | 'jobs' | 'push'>;

/** Work to do once the transaction has committed: push the change, hand mail to the delivery job. */
export type AfterCommit = () => Promise<void>;

export function afterCommitOf(
  deps: ActionsDeps,
  organizationId: string,
  changed: ReadonlyArray<{ id: string; change: 'created' | 'updated' | 'removed' }>,
  mail: ReadonlyArray<QueuedTemplatedMail | null>,
  sources: readonly SourceChange[] = [],
): AfterCommit {
  return async () => {
    for (const c of changed) deps.push.toOrganization(organizationId, { channel: 'actions', change: c.change, id: c.id });
    for (const s of sources) deps.push.toOrganization(organizationId, { channel: s.channel, change: 'updated', id: s.id });
    const queued = mail.filter((m): m is QueuedTemplatedMail => m !== null);
    if (queued.length > 0) await dispatchTemplatedMail(deps, queued);
  };
}

/* ---------------------------------------------------------------- checks */

type FieldErrors = Record<string, string>;

/** The responsible people among `ids` who may hold an action: active, non-guest members. */
export async function activeMembers(tx: Tx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(inArray(users.id, [...new Set(ids)]), eq(users.status, 'Active'), eq(users.isGuest, false), eq(users.isPlatformAdmin, false)),
    );
  return new Set(rows.map((r) => r.id));
}

/** Active categories of the actions module among `ids`. */
export async function actionCategories(tx: Tx, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(and(inArray(categories.id, [...new Set(ids)]), eq(categories.module, 'actions'), eq(categories.active, true)));
  return new Set(rows.map((r) => r.id));
}

/** The site's time zone, or null when there is no such site (or, with `activeOnly`, it is inactive). */
export async function siteTimeZone(tx: Tx, siteId: string, activeOnly = false): Promise<string | null> {
  const [row] = await tx
    .select({ tz: sites.timeZone })
    .from(sites)
    .where(and(eq(sites.id, siteId), activeOnly ? eq(sites.isActive, true) : undefined));
  return row?.tz ?? null;
}

/** The next serial of the organisation; the upsert locks its counter row until the transaction ends. */
export async function nextSerial(tx: Tx): Promise<number> {
  const [row] = await tx
    .insert(actionSerials)
    .values({ lastSerial: 1 })
    .onConflictDoUpdate({ target: actionSerials.organizationId, set: { lastSerial: sql`${actionSerials.lastSerial} + 1` } })
    .returning({ serial: actionSerials.lastSerial });
  return row!.serial;
}

/* ---------------------------------------------------------------- summaries */

type ActionRow = typeof actions.$inferSelect;

export async function toSummaries(tx: Tx, rows: readonly ActionRow[]): Promise<ActionSummary[]> {
  const people = rows.map((r) => r.responsibleId).filter((x): x is string => x !== null);
  const names =
    people.length === 0
      ? []
      : await tx
          .select({ id: users.id, fullName: users.fullName })
          .from(users)
          .where(inArray(users.id, [...new Set(people)]));
  const byId = new Map(names.map((n) => [n.id, n.fullName]));
  const refs = await describeSources(
    tx,
    rows.map((r) => ({ type: r.sourceType, id: r.sourceId })),
  );
  return rows.map((r) => ({
    id: r.id,
    serial: r.serial,
    description: r.description,
    control_type: r.controlType,
    status: r.status,
    due_date: r.dueDate,
    responsible: r.responsibleId && byId.has(r.responsibleId) ? { id: r.responsibleId, full_name: byId.get(r.responsibleId)! } : null,
    source_type: r.sourceType,
    source_id: r.sourceId,
    source_serial: r.sourceId ? (refs.get(r.sourceId)?.serial ?? null) : null,
  }));
}

/** The actions of one source record, in the order they were raised. */
export async function actionsOfSource(tx: Tx, type: ActionSource, sourceId: string): Promise<ActionSummary[]> {
  const rows = await tx
    .select()
    .from(actions)
    .where(and(eq(actions.sourceType, type), eq(actions.sourceId, sourceId)))
    .orderBy(asc(actions.serial));
  return toSummaries(tx, rows);
}

/** Status of every action of each source record (for the source's own status rule). */
export async function actionStatusesOf(tx: Tx, type: ActionSource, sourceIds: readonly string[]): Promise<Map<string, ActionStatus[]>> {
  const out = new Map<string, ActionStatus[]>();
  if (sourceIds.length === 0) return out;
  const rows = await tx
    .select({ sourceId: actions.sourceId, status: actions.status })
    .from(actions)
    .where(and(eq(actions.sourceType, type), inArray(actions.sourceId, [...sourceIds])));
  for (const r of rows) {
    if (!r.sourceId) continue;
    out.set(r.sourceId, [...(out.get(r.sourceId) ?? []), r.status]);
  }
  return out;
}

/* ---------------------------------------------------------------- create */

export type ActionCreateExtras = {
  imageDescription?: string | null;
  /** Raised with an anonymous report: the actions keep no creator, and their mail names nobody. */
  anonymous?: boolean;
};

/**
 * Raises actions for a source record (or, with type 'other', on their own) in the caller's
 * transaction. Checks every item first and refuses the lot with field paths `actions.N.field`;
 * writes the rows, the history, the responsible people's notifications and mail, and runs the
 * source's hook. Call `afterCommit` once the transaction has committed.
 */
export async function createActionsFor(
  tx: Tx,
  deps: ActionsDeps,
  actor: Principal,
  source: { type: ActionSource; id: string | null; siteId: string },
  items: ActionItem[],
  extras: ActionCreateExtras = {},
  /** Where refused fields are reported: a prefix (`actions.` gives `actions.0.due_date`) or a function. */
  fieldPath: string | ((n: number, field: string) => string) = 'actions.',
): Promise<{ actions: ActionSummary[]; afterCommit: AfterCommit }> {
  if (items.length === 0) return { actions: [], afterCommit: async () => {} };
  if ((source.type === 'other') !== (source.id === null))
    throw new Error('createActionsFor: only actions of source "other" have no source record');
  const timeZone = await siteTimeZone(tx, source.siteId);
  if (!timeZone) throw new AppError('validation_failed', { fields: { site_id: 'actions.validation.siteUnknown' } });
  const today = actionDateIn(timeZone);
  const members = await activeMembers(
    tx,
    items.map((i) => i.responsible_id),
  );
  const cats = await actionCategories(
    tx,
    items.map((i) => i.category_id).filter((c): c is string => !!c),
  );

  const fields: FieldErrors = {};
  items.forEach((item, n) => {
    const at = (f: string) => (typeof fieldPath === 'string' ? `${fieldPath}${n}.${f}` : fieldPath(n, f));
    if (!members.has(item.responsible_id)) fields[at('responsible_id')] = 'actions.validation.responsibleUnknown';
    if (item.due_date < today) fields[at('due_date')] = 'actions.validation.dueDatePast';
    if (item.category_id && !cats.has(item.category_id)) fields[at('category_id')] = 'actions.validation.categoryUnknown';
  });
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });

  const rows: ActionRow[] = [];
  const mail: Array<QueuedTemplatedMail | null> = [];
  for (const item of items) {
    const serial = await nextSerial(tx);
    const [row] = await tx
      .insert(actions)
      .values({
        serial,
        sourceType: source.type,
        sourceId: source.id,
        siteId: source.siteId,
        description: item.description,
        controlType: item.control_type,
        categoryId: item.category_id ?? null,
        responsibleId: item.responsible_id,
        dueDate: item.due_date,
        remarks: item.remarks ?? null,
        imageDescription: extras.imageDescription ?? null,
        createdBy: extras.anonymous ? null : actor.userId,
      })
      .returning();
    rows.push(row!);
    await recordAudit(tx, {
      actorUserId: extras.anonymous ? null : actor.userId,
      action: 'action_create',
      entity: 'Action',
      entityId: row!.id,
      changes: {
        serial,
        source_type: source.type,
        source_id: source.id,
        site_id: source.siteId,
        description: item.description,
        control_type: item.control_type,
        responsible_id: item.responsible_id,
        due_date: item.due_date,
        category_id: item.category_id ?? null,
      },
    });
    // Nobody needs telling about the action they gave themselves.
    if (item.responsible_id !== actor.userId) {
      mail.push(
        await mailAboutAction(
          tx,
          deps,
          'action_assigned',
          item.responsible_id,
          { id: row!.id, serial, description: item.description, dueDate: item.due_date, sourceType: source.type },
          { assigned_by: extras.anonymous ? (lang) => translate(lang, 'actions.anonymousReporter') : actor.fullName },
        ),
      );
    }
  }
  const sources = await notifySources(tx, [{ type: source.type, id: source.id }]);
  return {
    actions: await toSummaries(tx, rows),
    afterCommit: afterCommitOf(
      deps,
      actor.organizationId,
      rows.map((r) => ({ id: r.id, change: 'created' as const })),
      mail,
      sources,
    ),
  };
}
