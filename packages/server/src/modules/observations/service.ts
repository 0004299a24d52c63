import {
  can,
  formatObservationSerial,
  localDateTimeToInstant,
  observationCloseBlocker,
  observationStatusFromActions,
  translate,
  type ActionItem,
  type Language,
  type ObservationCreate,
  type ObservationGuest,
  type ObservationSource,
  type ObservationUpdate,
} from '@bulwark/domain';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import { publicUrl } from '../../platform/config.js';
import type { Tx } from '../../platform/db/db.js';
import { auditLog, mailOutbox, notifications, organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { actionStatusesOf, createActionsFor } from '../actions/service.js';
import { dispatchTemplatedMail, sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import {
  checkAttachments,
  checkCategory,
  checkNewReport,
  checkNode,
  checkObservedAt,
  checkSite,
  type FieldErrors,
  type ReportContext,
} from './checks.js';
import { observationAttachments, observations } from './tables.js';
import { loadObservation, toLocalText, toPgTimestamp, type ObservationRow } from './view.js';

export type ObservationsDeps = Pick<AppDeps, 'config' | 'mail' | 'jobs' | 'push' | 'storage'>;
export type AfterCommit = () => Promise<void>;

const ENTITY = 'Observation';

function refuse(fields: FieldErrors): void {
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
}

/**
 * The next serial of the organisation, as a CTE of the statement that writes the observation: the upsert
 * locks the organisation's counter row until the transaction ends, so every other report of the
 * organisation waits from here to the commit. Nothing but that statement and the commit should run while
 * it is held (issue 13: with the eleven statements that once ran under it, eight clients of one
 * organisation queued here for most of a 250 ms p99).
 */
const serialCte = (tx: Tx) =>
  tx.$with('serial', { lastSerial: sql<number>`last_serial` }).as(
    sql`insert into observation_serials as c (last_serial) values (1)
        on conflict (organization_id) do update set last_serial = c.last_serial + 1 returning last_serial`,
  );

/** formatObservationSerial in SQL, of the serial CTE's number (OBS-000123; longer numbers unpadded). */
const SERIAL_LABEL = sql.raw(`'OBS-' || lpad(last_serial::text, greatest(6, length(last_serial::text)), '0')`);

export function observationPath(id: string): string {
  return `/observations/summary/${id}`;
}

async function organizationLink(tx: Tx, deps: Pick<AppDeps, 'config'>, path: string): Promise<string> {
  const [org] = await tx
    .select({ sub: organizations.subDomainName })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  return `${publicUrl(deps.config, org?.sub ?? '')}${path}`;
}

/**
 * The site's head of safety hears of every new observation (mail + in-app), unless they reported it.
 * Written before the observation, so not under its serial's lock: the serial is not known yet, and
 * `mark` stands for it until the statement that takes it writes it in (`serialWrittenIn`).
 */
async function tellHeadOfSafety(
  tx: Tx,
  deps: ObservationsDeps,
  site: ReportContext,
  o: { id: string; reporterId: string | null; riskLevel: ObservationRow['riskLevel'] },
  mark: string,
  reporterLabel: (lang: Language) => string,
): Promise<QueuedTemplatedMail | null> {
  const head = site.head;
  if (!head || head.id === o.reporterId) return null;
  const lang = head.locale as Language;
  const path = observationPath(o.id);
  return sendTemplatedMail(tx, deps, {
    scenario: 'observation_reported',
    to: head.email,
    language: lang,
    userId: head.id,
    link: path,
    variables: {
      observation_id: mark,
      site_name: site.name,
      risk_level: translate(lang, `observations.riskLevels.${o.riskLevel}`),
      reporter_name: reporterLabel(lang),
      observation_link: `${publicUrl(deps.config, site.subDomain)}${path}`,
    },
  });
}

/** CTEs of the observation's statement that write its serial's label where the queued mail holds `mark`. */
function serialWrittenIn(tx: Tx, mail: QueuedTemplatedMail | null, mark: string) {
  const label = tx.$with('label', { text: sql<string>`text` }).as(sql`select ${SERIAL_LABEL} as text from serial`);
  const ctes = [];
  if (mail?.mailId)
    ctes.push(
      tx.$with('mail', {}).as(
        sql`update ${mailOutbox} set subject = replace(subject, ${mark}, label.text), body = replace(body, ${mark}, label.text)
          from label where ${mailOutbox.id} = ${mail.mailId}`,
      ),
    );
  if (mail?.notificationId)
    ctes.push(
      tx.$with('notice', {}).as(
        sql`update ${notifications} set title = replace(title, ${mark}, label.text), body = replace(body, ${mark}, label.text)
          from label where ${notifications.id} = ${mail.notificationId}`,
      ),
    );
  return ctes.length > 0 ? [label, ...ctes] : [];
}

type NewObservation = {
  source: ObservationSource;
  /** The signed-in reporter, null for a guest. */
  actor: Principal | null;
  values: Omit<ObservationCreate, 'actions' | 'attachment_ids'> & { reporter_name?: string | null; reporter_email?: string | null };
  attachmentIds: readonly string[];
  actions: ActionItem[];
  /** Prefix of action field errors ('actions.' for the form). */
  actionsField?: string;
  now?: Date;
};

/**
 * Writes a new observation with its attachments and actions in the caller's transaction, after
 * checking every reference; refuses the lot with field errors. The site's head of safety is told.
 * Everything that does not need the serial comes first (checks, the mail); then one statement takes
 * the serial and writes what does; then only what a report with files or actions adds.
 */
export async function insertObservation(
  tx: Tx,
  deps: ObservationsDeps,
  n: NewObservation,
): Promise<{ row: ObservationRow; afterCommit: AfterCommit }> {
  const v = n.values;
  const fields: FieldErrors = {};
  const site = await checkNewReport(tx, v, fields);
  if (site) checkObservedAt(v.observed_at, site.timeZone, fields, n.now);
  await checkAttachments(tx, n.attachmentIds, n.actor?.userId ?? null, fields);
  if (n.actions.length > 0 && n.actor && !can(n.actor.access, 'Action', 'create')) throw new AppError('forbidden');
  refuse(fields);

  const anonymous = v.anonymous;
  const id = site!.newId;
  const actorId = anonymous ? null : (n.actor?.userId ?? null);
  const mark = `[observation_id:${id}]`;
  // An import is announced by its importer, not by one mail per row.
  const mail =
    n.source === 'import'
      ? null
      : await tellHeadOfSafety(tx, deps, site!, { id, reporterId: actorId, riskLevel: v.risk_level }, mark, (lang) =>
          anonymous
            ? translate(lang, 'observations.anonymous')
            : (n.actor?.fullName ?? v.reporter_name ?? translate(lang, 'observations.guestReporter')),
        );

  // One statement from the serial to the commit: the serial, the observation, its history entry (an
  // anonymous report leaves no name there either), its files, and the serial in the mail above.
  const serial = serialCte(tx);
  const history = tx.$with('history', {}).as(
    sql`insert into ${auditLog} (actor_user_id, action, entity, entity_id, changes)
      select ${actorId}::uuid, ${n.source === 'import' ? 'observation_imported' : 'observation_created'}, ${ENTITY}, ${id},
        jsonb_build_object('serial', last_serial, 'source', ${n.source}::text, 'attachments', ${n.attachmentIds.length}::int) from serial`,
  );
  const attached = n.attachmentIds.length
    ? [
        tx
          .$with('attached', {})
          .as(
            sql`insert into ${observationAttachments} (observation_id, file_id) select ${id}::uuid, f from unnest(${sql.param([...n.attachmentIds])}::uuid[]) f`,
          ),
      ]
    : [];
  const [row] = await tx
    .with(serial, history, ...attached, ...serialWrittenIn(tx, mail, mark))
    .insert(observations)
    .values({
      id,
      serial: sql`(select last_serial from serial)`,
      type: v.type,
      categoryId: v.category_id,
      subCategoryId: v.sub_category_id,
      description: v.description,
      siteId: site!.id,
      siteNodeId: v.site_node_id,
      observedAt: localDateTimeToInstant(v.observed_at, site!.timeZone),
      observedLocal: toPgTimestamp(v.observed_at),
      riskLevel: v.risk_level,
      actionRequired: v.action_required,
      comment: v.comment,
      anonymous,
      reporterId: actorId,
      reporterName: anonymous || n.actor ? null : (v.reporter_name ?? null),
      reporterEmail: anonymous || n.actor ? null : (v.reporter_email ?? null),
      source: n.source,
      createdBy: actorId,
    })
    .returning();
  const o = row!;
  // A guest's uploads were held apart from the quota until this report linked them.
  if (n.attachmentIds.length > 0) await deps.storage.link(tx, n.attachmentIds);
  let actionsAfter: AfterCommit = async () => {};
  if (n.actions.length > 0 && n.actor) {
    const created = await createActionsFor(
      tx,
      deps,
      n.actor,
      { type: 'observation', id: o.id, siteId: o.siteId },
      n.actions,
      { anonymous },
      n.actionsField ?? 'actions.',
    );
    actionsAfter = created.afterCommit;
  }
  const organizationId = o.organizationId;
  return {
    row: o,
    afterCommit: async () => {
      deps.push.toOrganization(organizationId, { channel: 'observations', change: 'created', id: o.id });
      await actionsAfter();
      if (mail) await dispatchTemplatedMail(deps, mail);
    },
  };
}

export async function createObservation(tx: Tx, deps: ObservationsDeps, actor: Principal, body: ObservationCreate) {
  const { actions, attachment_ids, ...values } = body;
  // A signed-in guest's report is a guest report, like one from the public form, with its reporter kept.
  const source = actor.kind === 'guest' ? 'guest' : 'staff';
  return insertObservation(tx, deps, { source, actor, values, attachmentIds: attachment_ids, actions });
}

export async function createGuestObservation(tx: Tx, deps: ObservationsDeps, body: ObservationGuest) {
  const { attachment_ids, ...rest } = body;
  return insertObservation(tx, deps, {
    source: 'guest',
    actor: null,
    attachmentIds: attachment_ids,
    actions: [],
    values: { ...rest, category_id: null, sub_category_id: null, site_node_id: null, action_required: false },
  });
}

/* ---------------------------------------------------------------- status follows the actions */

/** The actions module's hook: recompute each observation's status from its actions, in the same transaction. */
export async function syncStatuses(tx: Tx, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: observations.id, status: observations.status })
    .from(observations)
    .where(and(inArray(observations.id, [...ids]), ne(observations.status, 'closed')))
    .for('update');
  const statuses = await actionStatusesOf(
    tx,
    'observation',
    rows.map((r) => r.id),
  );
  const changed: string[] = [];
  for (const r of rows) {
    const next = observationStatusFromActions(r.status, statuses.get(r.id) ?? []);
    if (next === r.status) continue;
    await tx.update(observations).set({ status: next, updatedAt: new Date() }).where(eq(observations.id, r.id));
    await recordAudit(tx, {
      actorUserId: null,
      action: 'observation_status_changed',
      entity: ENTITY,
      entityId: r.id,
      changes: { diff: { status: { from: r.status, to: next } } },
    });
    changed.push(r.id);
  }
  return changed;
}

/* ---------------------------------------------------------------- edit, add actions, close */

const EDITABLE = {
  type: 'type',
  category_id: 'categoryId',
  sub_category_id: 'subCategoryId',
  description: 'description',
  site_id: 'siteId',
  site_node_id: 'siteNodeId',
  risk_level: 'riskLevel',
  action_required: 'actionRequired',
  comment: 'comment',
} as const satisfies Record<string, keyof ObservationRow>;

/**
 * PATCH /api/observations/{id}. Field edits and new actions need Observation update (actions also
 * Action create); closing needs Observation close and every action completed or closed. A closed
 * observation no longer changes. Everything is checked before anything is written.
 */
export async function updateObservation(
  tx: Tx,
  deps: ObservationsDeps,
  actor: Principal,
  id: string,
  body: ObservationUpdate,
  now = new Date(),
) {
  const o = await loadObservation(tx, id, true);
  const { close, add_actions: addActions, attachment_ids: attachmentIds, observed_at: observedAt, ...rest } = body;
  const editsFields = Object.values(rest).some((x) => x !== undefined) || observedAt !== undefined || attachmentIds !== undefined;
  if ((editsFields || addActions) && !can(actor.access, 'Observation', 'update')) throw new AppError('forbidden');
  if (addActions && !can(actor.access, 'Action', 'create')) throw new AppError('forbidden');
  if (close && !can(actor.access, 'Observation', 'close'))
    throw new AppError('forbidden', { messageKey: 'observations.validation.closeRight' });
  if (o.status === 'closed') throw new AppError('conflict', { messageKey: 'observations.validation.closedReadOnly' });

  // The record as it will be, checked as a whole.
  const merged = {
    type: rest.type ?? o.type,
    category_id: rest.category_id !== undefined ? rest.category_id : o.categoryId,
    sub_category_id: rest.sub_category_id !== undefined ? rest.sub_category_id : o.subCategoryId,
    site_id: rest.site_id ?? o.siteId,
    site_node_id: rest.site_node_id !== undefined ? rest.site_node_id : rest.site_id && rest.site_id !== o.siteId ? null : o.siteNodeId,
    observed_at: observedAt ?? toLocalText(o.observedLocal),
    action_required: rest.action_required ?? o.actionRequired,
  };
  // A new type leaves the old category behind unless a category of the new type is given.
  if (rest.type && rest.type !== o.type && rest.category_id === undefined) {
    merged.category_id = null;
    merged.sub_category_id = null;
  }
  if (merged.category_id === null) merged.sub_category_id = null;

  const fields: FieldErrors = {};
  const site = await checkSite(tx, merged.site_id, fields);
  if (site) {
    await checkNode(tx, site.id, merged.site_node_id, fields);
    if (observedAt !== undefined || merged.site_id !== o.siteId) checkObservedAt(merged.observed_at, site.timeZone, fields, now);
  }
  await checkCategory(tx, merged.type, merged.category_id, merged.sub_category_id, fields);
  const currentFiles = (
    await tx
      .select({ fileId: observationAttachments.fileId })
      .from(observationAttachments)
      .where(eq(observationAttachments.observationId, o.id))
  ).map((r) => r.fileId);
  const addedFiles = attachmentIds ? attachmentIds.filter((f) => !currentFiles.includes(f)) : [];
  const removedFiles = attachmentIds ? currentFiles.filter((f) => !attachmentIds.includes(f)) : [];
  await checkAttachments(tx, addedFiles, actor.userId, fields);
  const existing = (await actionStatusesOf(tx, 'observation', [o.id])).get(o.id) ?? [];
  const actionCount = existing.length + (addActions?.length ?? 0);
  if (merged.action_required && actionCount === 0) fields['add_actions'] = 'observations.validation.actionsRequired';
  if (!merged.action_required && actionCount > 0) fields['action_required'] = 'observations.validation.actionsNotRequired';
  refuse(fields);

  const set: Partial<typeof observations.$inferInsert> = {};
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  const next: Record<keyof typeof EDITABLE, unknown> = {
    type: merged.type,
    category_id: merged.category_id,
    sub_category_id: merged.sub_category_id,
    description: rest.description ?? o.description,
    site_id: merged.site_id,
    site_node_id: merged.site_node_id,
    risk_level: rest.risk_level ?? o.riskLevel,
    action_required: merged.action_required,
    comment: rest.comment ?? o.comment,
  };
  for (const [field, column] of Object.entries(EDITABLE) as Array<[keyof typeof EDITABLE, keyof ObservationRow]>) {
    if (next[field] !== o[column]) {
      diff[field] = { from: o[column], to: next[field] };
      (set as Record<string, unknown>)[column] = next[field];
    }
  }
  if (merged.observed_at !== toLocalText(o.observedLocal) || merged.site_id !== o.siteId) {
    set.observedLocal = toPgTimestamp(merged.observed_at);
    set.observedAt = localDateTimeToInstant(merged.observed_at, site!.timeZone);
    if (merged.observed_at !== toLocalText(o.observedLocal))
      diff['observed_at'] = { from: toLocalText(o.observedLocal), to: merged.observed_at };
  }
  if (addedFiles.length > 0) {
    await tx.insert(observationAttachments).values(addedFiles.map((fileId) => ({ observationId: o.id, fileId })));
    await deps.storage.link(tx, addedFiles);
    diff['attachments_added'] = { from: null, to: addedFiles.length };
  }
  const purges: Array<() => Promise<void>> = [];
  for (const fileId of removedFiles) {
    const removed = await deps.storage.remove(tx, fileId);
    if (removed) purges.push(removed.purge);
  }
  if (removedFiles.length > 0) diff['attachments_removed'] = { from: removedFiles.length, to: null };
  if (Object.keys(diff).length > 0) {
    await tx
      .update(observations)
      .set({ ...set, updatedAt: now })
      .where(eq(observations.id, o.id));
    await recordAudit(tx, { actorUserId: actor.userId, action: 'observation_updated', entity: ENTITY, entityId: o.id, changes: { diff } });
  }

  let actionsAfter: AfterCommit = async () => {};
  if (addActions?.length) {
    const created = await createActionsFor(
      tx,
      deps,
      actor,
      { type: 'observation', id: o.id, siteId: merged.site_id },
      addActions,
      {},
      'add_actions.',
    );
    actionsAfter = created.afterCommit;
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'observation_actions_added',
      entity: ENTITY,
      entityId: o.id,
      changes: {
        diff: { actions: { from: existing.length, to: existing.length + created.actions.length } },
        serials: created.actions.map((a) => a.serial),
      },
    });
  }

  let mail: QueuedTemplatedMail | null = null;
  if (close) {
    const [fresh] = await tx.select({ status: observations.status }).from(observations).where(eq(observations.id, o.id));
    const statuses = (await actionStatusesOf(tx, 'observation', [o.id])).get(o.id) ?? [];
    const blocker = observationCloseBlocker(fresh!.status, statuses, true);
    if (blocker) throw new AppError('conflict', { messageKey: blocker, fields: { close: blocker } });
    await tx
      .update(observations)
      .set({ status: 'closed', closingRemarks: close.remarks, closedAt: now, closedBy: actor.userId, updatedAt: now })
      .where(eq(observations.id, o.id));
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'observation_closed',
      entity: ENTITY,
      entityId: o.id,
      changes: { diff: { status: { from: fresh!.status, to: 'closed' }, closing_remarks: { from: null, to: close.remarks } } },
    });
    mail = await tellReporterClosed(tx, deps, o, actor);
  }
  const organizationId = o.organizationId;
  return async () => {
    deps.push.toOrganization(organizationId, { channel: 'observations', change: 'updated', id: o.id });
    await actionsAfter();
    if (mail) await dispatchTemplatedMail(deps, mail);
    await Promise.allSettled(purges.map((p) => p()));
  };
}

/** The reporter (a member, not anonymous) hears that their observation was closed. */
async function tellReporterClosed(
  tx: Tx,
  deps: ObservationsDeps,
  o: ObservationRow,
  actor: Principal,
): Promise<QueuedTemplatedMail | null> {
  if (o.anonymous || !o.reporterId || o.reporterId === actor.userId) return null;
  const [reporter] = await tx
    .select({ id: users.id, email: users.email, locale: users.locale })
    .from(users)
    .where(and(eq(users.id, o.reporterId), eq(users.status, 'Active')));
  if (!reporter) return null;
  const path = observationPath(o.id);
  return sendTemplatedMail(tx, deps, {
    scenario: 'observation_closed',
    to: reporter.email,
    language: reporter.locale as Language,
    userId: reporter.id,
    link: path,
    variables: {
      observation_id: formatObservationSerial(o.serial),
      closed_by: actor.fullName,
      observation_link: await organizationLink(tx, deps, path),
    },
  });
}

/**
 * DELETE /api/observations/{id} (Observation delete). Only while it has no actions: an observation whose
 * actions exist is part of the record and is closed instead. Its files go with it.
 */
export async function deleteObservation(tx: Tx, deps: ObservationsDeps, actor: Principal, id: string) {
  const o = await loadObservation(tx, id, true);
  const statuses = (await actionStatusesOf(tx, 'observation', [o.id])).get(o.id) ?? [];
  if (statuses.length > 0) throw new AppError('conflict', { messageKey: 'observations.validation.hasActions' });
  const fileIds = (
    await tx
      .select({ fileId: observationAttachments.fileId })
      .from(observationAttachments)
      .where(eq(observationAttachments.observationId, o.id))
  ).map((r) => r.fileId);
  await tx.delete(observations).where(eq(observations.id, o.id));
  const purges: Array<() => Promise<void>> = [];
  for (const fileId of fileIds) {
    const removed = await deps.storage.remove(tx, fileId);
    if (removed) purges.push(removed.purge);
  }
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'observation_deleted',
    entity: ENTITY,
    entityId: o.id,
    changes: { serial: o.serial, type: o.type, site_id: o.siteId, description: o.description },
  });
  const organizationId = o.organizationId;
  return async () => {
    deps.push.toOrganization(organizationId, { channel: 'observations', change: 'removed', id: o.id });
    await Promise.allSettled(purges.map((p) => p()));
  };
}
