import type { ActionItem } from '@bulwark/domain';
import { and, eq, ne } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { createActionsFor } from '../actions/service.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { removeReviews } from '../workflows/review.js';
import {
  activeMembers,
  announce,
  AUDIT_ENTITY,
  isAreaOf,
  isAuditor,
  refuse,
  type AfterCommit,
  type AuditsDeps,
  type FieldErrors,
} from './common.js';
import { refusedFiles, setLinkedFiles } from './files.js';
import { auditContext, refuseStep } from './record.js';
import { tellScheduled } from './scheduler.js';
import { auditKeyFindings, audits } from './tables.js';

/** Editing an audit's details, deleting one not started, and its key findings. */

type AuditUpdate = {
  auditor_id?: string | undefined;
  auditee_id?: string | null | undefined;
  site_node_id?: string | null | undefined;
  due_date?: string | undefined;
  window_end?: string | undefined;
};

/**
 * PATCH /api/v2/audits/{id}: Audit update holders change the auditor, auditee, area or window until the
 * audit is completed (and again once rejected). The due date moves only before the audit is started.
 * A new auditor is told. An overdue audit whose window moves stays overdue: it was late.
 */
export async function updateAudit(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  body: AuditUpdate,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await auditContext(tx, actor, id, true);
  const a = ctx.row;
  if (!ctx.abilities.edit) throw new AppError('conflict', { messageKey: 'audits.validation.outOfOrder' });
  const fields: FieldErrors = {};
  if (body.auditor_id && body.auditor_id !== a.auditorId && !(await isAuditor(tx, body.auditor_id)))
    fields['auditor_id'] = 'audits.validation.auditorCannotRun';
  if (body.auditee_id && !(await activeMembers(tx, [body.auditee_id])).has(body.auditee_id))
    fields['auditee_id'] = 'audits.validation.userUnknown';
  if (body.site_node_id && !(await isAreaOf(tx, a.siteId, body.site_node_id))) fields['site_node_id'] = 'audits.validation.areaUnknown';
  const due = body.due_date ?? a.dueDate;
  const end = body.window_end ?? a.windowEnd;
  if (end < due) fields['window_end'] = 'audits.validation.endBeforeStart';
  if (body.due_date && body.due_date !== a.dueDate) {
    if (a.startedAt) fields['due_date'] = 'audits.validation.outOfOrder';
    else if (a.scheduleId) {
      const [taken] = await tx
        .select({ id: audits.id })
        .from(audits)
        .where(
          and(eq(audits.scheduleId, a.scheduleId), eq(audits.siteId, a.siteId), eq(audits.dueDate, body.due_date), ne(audits.id, a.id)),
        );
      if (taken) fields['due_date'] = 'audits.validation.dueTaken';
    }
  }
  refuse(fields);
  const set = {
    ...(body.auditor_id ? { auditorId: body.auditor_id } : {}),
    ...(body.auditee_id !== undefined ? { auditeeId: body.auditee_id } : {}),
    ...(body.site_node_id !== undefined ? { siteNodeId: body.site_node_id } : {}),
    dueDate: due,
    windowEnd: end,
    updatedAt: now,
  };
  await tx.update(audits).set(set).where(eq(audits.id, id));
  const diff = Object.fromEntries(
    (
      [
        ['auditor_id', a.auditorId, body.auditor_id],
        ['auditee_id', a.auditeeId, body.auditee_id],
        ['site_node_id', a.siteNodeId, body.site_node_id],
        ['due_date', a.dueDate, body.due_date],
        ['window_end', a.windowEnd, body.window_end],
      ] as const
    )
      .filter(([, from, to]) => to !== undefined && to !== from)
      .map(([k, from, to]) => [k, { from, to }]),
  );
  const reassigned = body.auditor_id !== undefined && body.auditor_id !== a.auditorId;
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: reassigned ? 'audit_reassigned' : 'audit_updated',
    entity: AUDIT_ENTITY,
    entityId: id,
    changes: { diff },
  });
  const mail: QueuedTemplatedMail[] = [];
  if (reassigned && body.auditor_id !== actor.userId) {
    const m = await tellScheduled(tx, deps, { ...a, auditorId: body.auditor_id!, dueDate: due });
    if (m) mail.push(m);
  }
  return async () => {
    announce(deps, actor.organizationId, id);
    if (mail.length) await dispatchTemplatedMail(deps, mail);
  };
}

/** DELETE /api/v2/audits/{id}: Audit delete, while it is not started (nothing is lost: no answers, no actions). */
export async function deleteAudit(tx: Tx, deps: AuditsDeps, actor: Principal, id: string): Promise<AfterCommit> {
  const ctx = await auditContext(tx, actor, id, true);
  const a = ctx.row;
  if (ctx.actionCount > 0) throw new AppError('conflict', { messageKey: 'audits.validation.hasActions' });
  if (!ctx.abilities.delete) throw new AppError('conflict', { messageKey: 'audits.validation.started' });
  await removeReviews(tx, 'audits', id);
  await tx.delete(audits).where(eq(audits.id, id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_deleted',
    entity: AUDIT_ENTITY,
    entityId: id,
    changes: { serial: a.serial, template_id: a.templateId, site_id: a.siteId, due_date: a.dueDate },
  });
  return async () => announce(deps, actor.organizationId, id, 'removed');
}

type FindingInput = ActionItem & { question_id: string | null; picture_ids: string[] };

/**
 * POST /api/v2/audits/{id}/key_findings: while the audit runs, its auditor records key findings; each
 * becomes an action of source `audit` through the actions module (all or none; the responsible people
 * are told), keeping its pictures and the question it arose from.
 */
export async function addKeyFindings(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  findings: FindingInput[],
): Promise<AfterCommit> {
  const ctx = await auditContext(tx, actor, id, true);
  refuseStep(ctx, 'answer');
  const a = ctx.row;
  const questionIds = new Set((a.form?.sections ?? []).flatMap((s) => s.questions.map((q) => q.id)));
  const fields: FieldErrors = {};
  for (const [n, f] of findings.entries()) {
    if (f.question_id && !questionIds.has(f.question_id)) fields[`findings.${n}.question_id`] = 'audits.validation.questionUnknown';
    const refused = await refusedFiles(tx, actor.userId, { auditId: id, kind: 'finding', findingId: null }, f.picture_ids, 'image/');
    if (refused.length) fields[`findings.${n}.picture_ids`] = 'audits.validation.fileUnknown';
  }
  const allPictures = findings.flatMap((f) => f.picture_ids);
  if (new Set(allPictures).size !== allPictures.length) fields['findings'] = 'validation.invalid';
  refuse(fields);
  const { actions, afterCommit } = await createActionsFor(
    tx,
    deps,
    actor,
    { type: 'audit', id, siteId: a.siteId },
    findings.map(({ question_id: _q, picture_ids: _p, ...item }) => item),
    {},
    (n, f) => `findings.${n}.${f}`,
  );
  for (const [n, f] of findings.entries()) {
    const [row] = await tx
      .insert(auditKeyFindings)
      .values({
        auditId: id,
        questionId: f.question_id,
        description: f.description,
        actionId: actions[n]?.id ?? null,
        createdBy: actor.userId,
      })
      .returning({ id: auditKeyFindings.id });
    await setLinkedFiles(tx, deps, { auditId: id, kind: 'finding', findingId: row!.id }, f.picture_ids);
  }
  await tx.update(audits).set({ updatedAt: new Date() }).where(eq(audits.id, id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_key_findings_added',
    entity: AUDIT_ENTITY,
    entityId: id,
    changes: {
      actions: actions.map((x) => x.id),
      comment: findings
        .map((f) => f.description)
        .join('; ')
        .slice(0, 2000),
    },
  });
  return async () => {
    await afterCommit();
    announce(deps, actor.organizationId, id);
  };
}
