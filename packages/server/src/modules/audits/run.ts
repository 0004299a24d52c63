import { auditPath, formatAuditSerial, localDateIn, nextAuditStatus, type AuditEvent } from '@bulwark/domain';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { decideReview, submitForReview, type ReviewRecord } from '../workflows/review.js';
import { storeResults } from './answer.js';
import {
  announce,
  AUDIT_ENTITY,
  currentOrganization,
  freeLimits,
  refuse,
  refuseOverLimit,
  sitesByIds,
  type AfterCommit,
  type AuditsDeps,
} from './common.js';
import { refusedFiles, setLinkedFiles } from './files.js';
import { auditContext, loadAudit, refuseStep, type AuditRow } from './record.js';
import { audits, auditTemplates } from './tables.js';
import { currentForm } from './template-form.js';
import { answersOf, scoreOf } from './view.js';

/** Running an audit: start, resume, notes, complete, and its review (approve or reject). */

const stateOf = (a: AuditRow) => ({ status: a.status, started: a.startedAt !== null, markedOverdue: a.overdueAt !== null });

function next(a: AuditRow, event: AuditEvent) {
  const to = nextAuditStatus(stateOf(a), event);
  if (!to) throw new AppError('conflict', { messageKey: 'audits.validation.outOfOrder' });
  return to;
}

/** The free account runs 10 audits a month (spec 001 §8-§9), counted by their start in the organisation's time zone. */
async function checkMonthlyLimit(tx: Tx, now: Date) {
  const limits = await freeLimits(tx);
  if (!limits) return;
  const { timezone } = await currentOrganization(tx);
  const month = localDateIn(timezone, now).slice(0, 7);
  const [row] = await tx
    .select({ n: count() })
    .from(audits)
    .where(and(isNotNull(audits.startedAt), sql`to_char(${audits.startedAt} at time zone ${timezone}, 'YYYY-MM') = ${month}`));
  refuseOverLimit(row!.n, limits.auditsPerMonth, 'monthly');
}

/** Audits started this month (the free account's count), for the forms. */
export async function startedThisMonth(tx: Tx, now = new Date()): Promise<number> {
  const { timezone } = await currentOrganization(tx);
  const month = localDateIn(timezone, now).slice(0, 7);
  const [row] = await tx
    .select({ n: count() })
    .from(audits)
    .where(and(isNotNull(audits.startedAt), sql`to_char(${audits.startedAt} at time zone ${timezone}, 'YYYY-MM') = ${month}`));
  return row!.n;
}

/** POST /api/v2/audits/{id}/start: its auditor starts it; it takes its own copy of the template's form. */
export async function startAudit(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  comment: string | null,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await auditContext(tx, actor, id, true);
  refuseStep(ctx, 'start');
  const a = ctx.row;
  const to = next(a, 'start');
  await checkMonthlyLimit(tx, now);
  const form = await currentForm(tx, a.templateId);
  await tx.update(audits).set({ status: to, form, startedAt: now, startedBy: actor.userId, updatedAt: now }).where(eq(audits.id, a.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_started',
    entity: AUDIT_ENTITY,
    entityId: a.id,
    changes: { diff: { status: { from: a.status, to } }, comment },
  });
  return async () => announce(deps, actor.organizationId, a.id);
}

/** POST /api/v2/audits/{id}/resume: its auditor takes a rejected audit up again, to correct and complete it. */
export async function resumeAudit(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  comment: string | null,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await auditContext(tx, actor, id, true);
  refuseStep(ctx, 'resume');
  const a = ctx.row;
  const to = next(a, 'resume');
  await tx
    .update(audits)
    .set({
      status: to,
      completedAt: null,
      completedBy: null,
      completedOn: null,
      decidedAt: null,
      decidedBy: null,
      decisionComment: null,
      updatedAt: now,
    })
    .where(eq(audits.id, a.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_resumed',
    entity: AUDIT_ENTITY,
    entityId: a.id,
    changes: { diff: { status: { from: a.status, to } }, comment },
  });
  return async () => announce(deps, actor.organizationId, a.id);
}

/** PUT /api/v2/audits/{id}/notes: the notes and the audit's own attachments, while it runs. */
export async function saveNotes(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  body: { notes: string | null; attachment_ids: string[] },
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await auditContext(tx, actor, id, true);
  refuseStep(ctx, 'answer');
  const owner = { auditId: id, kind: 'audit' as const };
  if ((await refusedFiles(tx, actor.userId, owner, body.attachment_ids)).length)
    refuse({ attachment_ids: 'audits.validation.fileUnknown' });
  await tx.update(audits).set({ notes: body.notes, updatedAt: now }).where(eq(audits.id, id));
  const purges = await setLinkedFiles(tx, deps, owner, body.attachment_ids);
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_notes_updated',
    entity: AUDIT_ENTITY,
    entityId: id,
    changes: { notes: body.notes, attachment_ids: body.attachment_ids },
  });
  return async () => {
    announce(deps, actor.organizationId, id);
    await Promise.allSettled(purges.map((p) => p()));
  };
}

/**
 * POST /api/v2/audits/{id}/complete: every required question shown answered and the declaration
 * accepted; the score is final, and the audit goes to its review (the site's workflow, or Audit approve).
 */
export async function completeAudit(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  body: { comment: string | null; declaration_accepted: boolean },
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await auditContext(tx, actor, id, true);
  refuseStep(ctx, 'complete');
  const a = ctx.row;
  const to = next(a, 'complete');
  const form = a.form!;
  const answers = await answersOf(tx, a.id);
  const s = scoreOf(form, answers);
  if (s.progress.missing_required.length > 0)
    throw new AppError('conflict', {
      messageKey: 'audits.validation.requiredMissing',
      fields: Object.fromEntries(s.progress.missing_required.map((q) => [`answers.${q}`, 'audits.validation.answerRequired'])),
    });
  if (form.declaration && !body.declaration_accepted) refuse({ declaration_accepted: 'audits.validation.declarationRequired' });
  const site = (await sitesByIds(tx, [a.siteId])).get(a.siteId)!;
  await storeResults(tx, a, answers, s);
  await tx
    .update(audits)
    .set({
      status: to,
      completedAt: now,
      completedBy: actor.userId,
      completedOn: localDateIn(site.timeZone, now),
      declarationAccepted: body.declaration_accepted && !!form.declaration,
      updatedAt: now,
    })
    .where(eq(audits.id, a.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_completed',
    entity: AUDIT_ENTITY,
    entityId: a.id,
    changes: { diff: { status: { from: a.status, to } }, score: s.score, comment: body.comment },
  });
  const { afterCommit } = await submitForReview(tx, deps, actor, 'audits', a.id);
  return async () => {
    announce(deps, actor.organizationId, a.id);
    await afterCommit();
  };
}

/** How the review engine names and routes an audit: its site's (or its template's) workflow; the auditor owns it. */
export async function describeForReview(tx: Tx, id: string): Promise<ReviewRecord> {
  const a = await loadAudit(tx, id);
  const [t] = await tx.select({ name: auditTemplates.name }).from(auditTemplates).where(eq(auditTemplates.id, a.templateId));
  return {
    label: `${formatAuditSerial(a.serial)} ${t?.name ?? ''}`.trim(),
    path: auditPath(a.id),
    siteId: a.siteId,
    formId: a.templateId,
    ownerId: a.auditorId,
  };
}

/** The engine's hook, in the deciding transaction: approved, or rejected back to the auditor, with the remarks. */
export async function onReviewDecided(
  tx: Tx,
  id: string,
  outcome: 'approved' | 'rejected',
  by: { userId: string; comment: string | null },
) {
  const a = await loadAudit(tx, id, true);
  const event = outcome === 'approved' ? 'approve' : 'reject';
  const to = nextAuditStatus(stateOf(a), event);
  if (!to) return;
  const now = new Date();
  await tx
    .update(audits)
    .set({ status: to, decidedAt: now, decidedBy: by.userId, decisionComment: by.comment, updatedAt: now })
    .where(eq(audits.id, id));
  await recordAudit(tx, {
    actorUserId: by.userId,
    action: outcome === 'approved' ? 'audit_approved' : 'audit_rejected',
    entity: AUDIT_ENTITY,
    entityId: id,
    changes: { diff: { status: { from: a.status, to } }, comment: by.comment },
  });
}

/**
 * POST /api/v2/audits/{id}/decide: approve or reject a completed audit, with remarks either way (spec
 * 001 §5). The engine says who may: the reviewers whose turn it is, or Audit approve without a workflow.
 */
export async function decideAudit(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  decision: { approve: boolean; comment: string },
): Promise<AfterCommit> {
  const a = await loadAudit(tx, id, true);
  if (a.status !== 'completed') throw new AppError('conflict', { messageKey: 'audits.validation.notCompleted' });
  const { afterCommit } = await decideReview(tx, deps, actor, 'audits', a.id, decision);
  return async () => {
    announce(deps, actor.organizationId, a.id);
    await afterCommit();
  };
}
