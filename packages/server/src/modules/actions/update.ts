import {
  ACTION_RESPONSIBLE_FIELDS,
  ACTION_SYSTEM_TARGETS,
  actionAbilities,
  actionDateIn,
  can,
  canMoveAction,
  mayCloseAction,
  translate,
  type ActionStatus,
  type ActionUpdate,
} from '@bulwark/domain';
import { and, eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import type { Upload } from '../../platform/http/upload.js';
import type { StoredFile } from '../../platform/storage/storage.js';
import type { QueuedTemplatedMail } from '../mailers/send.js';
import { mailAboutAction } from './notify.js';
import { actionCloseRule, actionRow } from './queries.js';
import { activeMembers, actionCategories, afterCommitOf, siteTimeZone, type ActionsDeps, type AfterCommit } from './service.js';
import { notifySources } from './sources.js';
import { actionAttachments, actions } from './tables.js';

type Row = typeof actions.$inferSelect;

/**
 * Writes by the responsible person alone stop where the platform stops writes (spec 001 §4, §8). Full
 * storage needs no check here: the router answers every write with memory_exhausted.
 */
function refuseFrozenWrites(p: Principal): void {
  if (p.trialExpired) throw new AppError('free_trial_expired');
}

function refuseClosed(row: Row): void {
  if (row.status === 'closed')
    throw new AppError('conflict', {
      messageKey: 'actions.validation.closedReadOnly',
      fields: { status: 'actions.validation.closedReadOnly' },
    });
}

const COLUMN: Record<Exclude<keyof ActionUpdate, 'status'>, keyof Row> = {
  description: 'description',
  control_type: 'controlType',
  responsible_id: 'responsibleId',
  due_date: 'dueDate',
  category_id: 'categoryId',
  site_id: 'siteId',
  remarks: 'remarks',
  image_description: 'imageDescription',
};

/**
 * PATCH /api/actions/{id}. Field rights and status moves follow `actionAbilities` of the domain;
 * every refusal names its field and writes nothing.
 */
export async function updateAction(
  tx: Tx,
  deps: ActionsDeps,
  p: Principal,
  id: string,
  body: ActionUpdate,
  lang: Principal['locale'],
): Promise<AfterCommit> {
  const row = await actionRow(tx, id, true);
  refuseFrozenWrites(p);
  const canUpdate = can(p.access, 'Action', 'update');
  const mine = row.responsibleId === p.userId;
  if (!canUpdate && !mine) throw new AppError('forbidden');
  refuseClosed(row);

  // Only what really changes counts (a form sends every field back).
  const changed = Object.fromEntries(
    Object.entries(body).filter(
      ([k, v]) => v !== undefined && (k === 'status' ? v !== row.status : v !== row[COLUMN[k as keyof typeof COLUMN]]),
    ),
  ) as ActionUpdate;
  if (!canUpdate) {
    const refused = Object.keys(changed).filter((k) => !(ACTION_RESPONSIBLE_FIELDS as readonly string[]).includes(k));
    if (refused.length > 0)
      throw new AppError('forbidden', { fields: Object.fromEntries(refused.map((k) => [k, 'actions.validation.notAllowed'])) });
  }

  const fields: Record<string, string> = {};
  if (changed.responsible_id && !(await activeMembers(tx, [changed.responsible_id])).has(changed.responsible_id)) {
    fields['responsible_id'] = 'actions.validation.responsibleUnknown';
  }
  if (changed.category_id && !(await actionCategories(tx, [changed.category_id])).has(changed.category_id)) {
    fields['category_id'] = 'actions.validation.categoryUnknown';
  }
  if (changed.site_id !== undefined) {
    if (row.sourceType !== 'other') fields['site_id'] = 'actions.validation.siteOfSource';
    else if (!(await siteTimeZone(tx, changed.site_id, true))) fields['site_id'] = 'actions.validation.siteUnknown';
  }
  const timeZone = (await siteTimeZone(tx, changed.site_id && !fields['site_id'] ? changed.site_id : row.siteId)) ?? 'UTC';
  const today = actionDateIn(timeZone);
  if (changed.due_date !== undefined && changed.due_date < today) fields['due_date'] = 'actions.validation.dueDatePast';

  // The status: asked for, or back to open when an overdue action gets a due date that has not passed.
  const from = row.status;
  let to: ActionStatus = changed.status ?? from;
  const dueDate = changed.due_date ?? row.dueDate;
  if (changed.status !== undefined) {
    const label = (s: ActionStatus) => translate(lang, `actions.status.${s}`);
    if (ACTION_SYSTEM_TARGETS.includes(changed.status)) fields['status'] = 'actions.validation.overdueBySystem';
    else if (!canMoveAction(from, changed.status)) {
      throw new AppError('validation_failed', {
        fields: { status: 'actions.validation.transition' },
        vars: { from: label(from), to: label(changed.status) },
      });
    } else if (from === 'overdue' && changed.status === 'open') {
      if (dueDate < today) fields['status'] = 'actions.validation.stillOverdue';
    } else {
      const closeRule = await actionCloseRule(tx, row.completedBy);
      if (changed.status === 'closed' && canUpdate && !mayCloseAction(closeRule, p, closeRule.close_by_other)) {
        // The one who did the work does not verify it (issue 15 item 8), whatever their rights.
        throw new AppError('forbidden', {
          messageKey: 'actions.validation.closeByOther',
          fields: { status: 'actions.validation.closeByOther' },
        });
      }
      if (
        !actionAbilities({ status: from, responsible_id: row.responsibleId }, { userId: p.userId, canUpdate }, closeRule).move_to.includes(
          changed.status,
        )
      ) {
        throw new AppError('forbidden', { fields: { status: 'actions.validation.notAllowed' } });
      }
    }
  } else if (from === 'overdue' && changed.due_date !== undefined && changed.due_date >= today) {
    to = 'open';
  }
  const remarks = changed.remarks !== undefined ? changed.remarks : row.remarks;
  if (to === 'completed' && from !== 'completed' && !remarks?.trim()) fields['remarks'] = 'actions.validation.remarksToComplete';
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });

  const now = new Date();
  const set: Partial<typeof actions.$inferInsert> = { updatedAt: now };
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  for (const [k, v] of Object.entries(changed)) {
    if (k === 'status') continue;
    const column = COLUMN[k as keyof typeof COLUMN];
    diff[k] = { from: row[column], to: v };
    Object.assign(set, { [column]: v });
  }
  if (to !== from) {
    set.status = to;
    if (to === 'completed') Object.assign(set, { completedAt: now, completedBy: p.userId });
    if (from === 'completed' && to !== 'closed') Object.assign(set, { completedAt: null, completedBy: null });
    if (to === 'closed') Object.assign(set, { closedAt: now, closedBy: p.userId });
  }
  await tx.update(actions).set(set).where(eq(actions.id, id));
  // One history entry per change, so its parts never come out of order.
  if (to !== from)
    await recordAudit(tx, {
      actorUserId: p.userId,
      action: 'action_status',
      entity: 'Action',
      entityId: id,
      changes: { ...diff, from, to },
    });
  else if (Object.keys(diff).length > 0)
    await recordAudit(tx, { actorUserId: p.userId, action: 'action_update', entity: 'Action', entityId: id, changes: diff });

  const mail: Array<QueuedTemplatedMail | null> = [];
  const mailed = { id, serial: row.serial, description: changed.description ?? row.description, dueDate, sourceType: row.sourceType };
  if (changed.responsible_id && changed.responsible_id !== p.userId) {
    mail.push(await mailAboutAction(tx, deps, 'action_assigned', changed.responsible_id, mailed, { assigned_by: p.fullName }));
  }
  if (to === 'completed' && from !== 'completed' && row.createdBy && row.createdBy !== p.userId) {
    mail.push(await mailAboutAction(tx, deps, 'action_completed', row.createdBy, mailed, { completed_by: p.fullName }));
  }
  const sources = to !== from ? await notifySources(tx, [{ type: row.sourceType, id: row.sourceId }]) : [];
  return afterCommitOf(deps, p.organizationId, [{ id, change: 'updated' }], mail, sources);
}

/** POST /api/actions/{id}/attachments: the responsible person or an updater adds a file or photo. */
export async function addAttachment(
  tx: Tx,
  deps: ActionsDeps & Pick<AppDeps, 'storage'>,
  p: Principal,
  id: string,
  upload: Upload,
): Promise<{ file: StoredFile; afterCommit: AfterCommit }> {
  const row = await actionRow(tx, id, true);
  refuseClosed(row);
  refuseFrozenWrites(p);
  if (
    !actionAbilities(
      { status: row.status, responsible_id: row.responsibleId },
      { userId: p.userId, canUpdate: can(p.access, 'Action', 'update') },
    ).report
  ) {
    throw new AppError('forbidden');
  }
  const file = await deps.storage.store(tx, {
    purpose: 'attachment',
    fileName: upload.fileName,
    bytes: upload.file,
    uploadedBy: p.userId,
  });
  await tx.insert(actionAttachments).values({ actionId: id, fileId: file.id });
  await tx.update(actions).set({ updatedAt: new Date() }).where(eq(actions.id, id));
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'action_attach',
    entity: 'Action',
    entityId: id,
    changes: { file_id: file.id, file_name: file.file_name },
  });
  return { file, afterCommit: afterCommitOf(deps, p.organizationId, [{ id, change: 'updated' }], []) };
}

/** DELETE /api/actions/{id}/attachments/{fileId}: the file goes, its space comes back to the quota. */
export async function removeAttachment(
  tx: Tx,
  deps: ActionsDeps & Pick<AppDeps, 'storage'>,
  p: Principal,
  id: string,
  fileId: string,
): Promise<AfterCommit> {
  const row = await actionRow(tx, id, true);
  refuseClosed(row);
  if (p.trialExpired) throw new AppError('free_trial_expired');
  if (
    !actionAbilities(
      { status: row.status, responsible_id: row.responsibleId },
      { userId: p.userId, canUpdate: can(p.access, 'Action', 'update') },
    ).report
  ) {
    throw new AppError('forbidden');
  }
  const [link] = await tx
    .delete(actionAttachments)
    .where(and(eq(actionAttachments.actionId, id), eq(actionAttachments.fileId, fileId)))
    .returning();
  if (!link) throw new AppError('not_found');
  const stored = await deps.storage.find(tx, fileId);
  const removed = await deps.storage.remove(tx, fileId);
  await tx.update(actions).set({ updatedAt: new Date() }).where(eq(actions.id, id));
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'action_detach',
    entity: 'Action',
    entityId: id,
    changes: { file_id: fileId, file_name: stored?.fileName ?? null },
  });
  const push = afterCommitOf(deps, p.organizationId, [{ id, change: 'updated' }], []);
  return async () => {
    await removed?.purge();
    await push();
  };
}
