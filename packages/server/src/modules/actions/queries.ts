import {
  ACTION_HISTORY_EVENTS,
  ACTION_SOURCE_ACCESS,
  actionAbilities,
  can,
  type ActionCloseRule,
  type ActionDetail,
  type ActionHistoryEvent,
  type ActionSource,
  type MyActionCounts,
} from '@bulwark/domain';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { auditLog, files, organizations, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { fileUrl } from '../../platform/storage/storage.js';
import { categories } from '../categories/read.js';
import { sites } from '../sites/read.js';
import { toListItems } from './list.js';
import { actionAttachments, actions } from './tables.js';

export { filterWhere, listActions, statusCounts, withStatus } from './list.js';

const responsible = alias(users, 'responsible');
const creator = alias(users, 'creator');
const completer = alias(users, 'completer');
const closer = alias(users, 'closer');

/** An action with every name the detail shows. */
function selectActions(tx: Tx) {
  return tx
    .select({
      a: actions,
      responsibleName: responsible.fullName,
      creatorName: creator.fullName,
      completerName: completer.fullName,
      closerName: closer.fullName,
      siteName: sites.name,
      siteTimeZone: sites.timeZone,
      categoryName: categories.name,
    })
    .from(actions)
    .innerJoin(sites, and(eq(sites.organizationId, actions.organizationId), eq(sites.id, actions.siteId)))
    .leftJoin(responsible, and(eq(responsible.organizationId, actions.organizationId), eq(responsible.id, actions.responsibleId)))
    .leftJoin(creator, and(eq(creator.organizationId, actions.organizationId), eq(creator.id, actions.createdBy)))
    .leftJoin(completer, and(eq(completer.organizationId, actions.organizationId), eq(completer.id, actions.completedBy)))
    .leftJoin(closer, and(eq(closer.organizationId, actions.organizationId), eq(closer.id, actions.closedBy)))
    .leftJoin(categories, and(eq(categories.organizationId, actions.organizationId), eq(categories.id, actions.categoryId)));
}

const person = (id: string | null, name: string | null) => (id && name !== null ? { id, full_name: name } : null);

/** The raw row of an action, locked for a change when `forUpdate`; "not found" otherwise. */
export async function actionRow(tx: Tx, id: string, forUpdate = false) {
  const q = tx.select().from(actions).where(eq(actions.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

/** Who completed the action and whether this organisation needs someone else to close it (mayCloseAction). */
export async function actionCloseRule(tx: Tx, completedBy: string | null): Promise<ActionCloseRule> {
  const [org] = await tx
    .select({ closeByOther: organizations.actionCloseByOther })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  return { completed_by_id: completedBy, close_by_other: org?.closeByOther ?? true };
}

/** The detail of an action: every field, attachments, source reference, history and what the viewer may do. */
export async function actionDetail(tx: Tx, p: Principal, id: string): Promise<ActionDetail> {
  const [row] = await selectActions(tx).where(eq(actions.id, id));
  if (!row) throw new AppError('not_found');
  const [item] = await toListItems(tx, [row]);
  const uploader = alias(users, 'uploader');
  const attached = await tx
    .select({ file: files, uploaderName: uploader.fullName, linkedAt: actionAttachments.createdAt })
    .from(actionAttachments)
    .innerJoin(files, and(eq(files.organizationId, actionAttachments.organizationId), eq(files.id, actionAttachments.fileId)))
    .leftJoin(uploader, and(eq(uploader.organizationId, files.organizationId), eq(uploader.id, files.uploadedBy)))
    .where(eq(actionAttachments.actionId, id))
    .orderBy(asc(actionAttachments.createdAt), asc(files.id));
  const actor = alias(users, 'actor');
  const history = await tx
    .select({ log: auditLog, actorName: actor.fullName })
    .from(auditLog)
    .leftJoin(actor, and(eq(actor.organizationId, auditLog.organizationId), eq(actor.id, auditLog.actorUserId)))
    .where(and(eq(auditLog.entity, 'Action'), eq(auditLog.entityId, id), inArray(auditLog.action, [...ACTION_HISTORY_EVENTS])))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  const a = row.a;
  return {
    ...item!,
    image_description: a.imageDescription,
    completed_by: person(a.completedBy, row.completerName),
    closed_by: person(a.closedBy, row.closerName),
    updated_at: a.updatedAt.toISOString(),
    attachments: attached.map(({ file, uploaderName, linkedAt }) => ({
      id: file.id,
      file_name: file.fileName,
      mime_type: file.mimeType,
      size_bytes: file.sizeBytes,
      url: fileUrl(file.id),
      uploaded_by: person(file.uploadedBy, uploaderName),
      created_at: linkedAt.toISOString(),
    })),
    history: history.map(({ log, actorName }) => ({
      id: log.id,
      event: log.action as ActionHistoryEvent,
      actor: person(log.actorUserId, actorName),
      changes: (log.changes ?? {}) as Record<string, unknown>,
      created_at: log.createdAt.toISOString(),
    })),
    can: actionAbilities(
      { status: a.status, responsible_id: a.responsibleId },
      { userId: p.userId, canUpdate: can(p.access, 'Action', 'update') },
      await actionCloseRule(tx, a.completedBy),
    ),
  };
}

/** Push request get_actions: the signed-in user's unfinished actions by status. */
export async function myActionCounts(tx: Tx, userId: string): Promise<MyActionCounts> {
  const rows = await tx
    .select({ status: actions.status, n: count() })
    .from(actions)
    .where(and(eq(actions.responsibleId, userId), inArray(actions.status, ['open', 'in_progress', 'overdue'])))
    .groupBy(actions.status);
  const n = (s: string) => Number(rows.find((r) => r.status === s)?.n ?? 0);
  return { open: n('open'), in_progress: n('in_progress'), overdue: n('overdue'), total: n('open') + n('in_progress') + n('overdue') };
}

/**
 * Who may read which actions: Action read, the right that guards the source's list
 * (ACTION_SOURCE_ACCESS: each source's own read right; a session for safety interactions, which any
 * member may read), or being the responsible person.
 */
export function mayReadAction(p: Principal, a: { sourceType: ActionSource; responsibleId: string | null }): boolean {
  if (a.responsibleId === p.userId) return true;
  const guard = ACTION_SOURCE_ACCESS[a.sourceType];
  return can(p.access, 'Action', 'read') || 'session' in guard || can(p.access, guard.subject, 'read');
}

/** The active categories of the actions module, by type and name. */
export async function categoryOptions(tx: Tx) {
  return tx
    .select({ id: categories.id, name: categories.name, type: categories.type })
    .from(categories)
    .where(and(eq(categories.module, 'actions'), eq(categories.active, true)))
    .orderBy(asc(categories.type), asc(categories.name));
}
