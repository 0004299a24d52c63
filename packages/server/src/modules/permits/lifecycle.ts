import { can, checkAnswers, isDraftAuthor, isLiveStatus, permitMayMove, permitTransition, type PermitCommand } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { decideReview, reviewOf, submitForReview } from '../workflows/review.js';
import { checkClosureFiles, checkMasters, checkRequest } from './checks.js';
import { answerInputs, formSections, storedAnswers } from './form-snapshot.js';
import { headOfSafetyOf, mailTime, nameOf, tellAbout, type PermitsDeps } from './notify.js';
import { PERMIT_ENTITY, issuersOf, loadPermit, notAllowed, pendingExtension, type PermitRow } from './record.js';
import { enabledTemplate, valuesOf, writeRequest } from './requests.js';
import { loadTemplate, sectionsOf } from './template-read.js';
import { permitExtensions, permitFiles, permits } from './tables.js';

export type AfterCommit = () => Promise<void>;

/** After the commit: the permits channel hears of the change, then the mails go out. */
export function announce(
  deps: PermitsDeps,
  row: Pick<PermitRow, 'organizationId' | 'id'>,
  mail: QueuedTemplatedMail[],
  more?: AfterCommit,
): AfterCommit {
  return async () => {
    deps.push.toOrganization(row.organizationId, { channel: 'permits', change: 'updated', id: row.id });
    if (mail.length > 0) await dispatchTemplatedMail(deps, mail);
    if (more) await more();
  };
}

async function audit(tx: Tx, actor: Principal | null, action: string, id: string, changes: Record<string, unknown> = {}) {
  await recordAudit(tx, { actorUserId: actor?.userId ?? null, action, entity: PERMIT_ENTITY, entityId: id, changes });
}

/** The move is in the table from this status (409 otherwise, naming the status). */
function requireMove(command: PermitCommand, row: PermitRow, extensionPending: boolean): void {
  if (!permitMayMove(command, row.status, extensionPending)) throw notAllowed(row);
}

/**
 * POST /api/permit_requests/{id}/submit (and create with submit=true): a draft's authors send it to
 * the issuing officers. The draft is checked whole against its template as it is now (then frozen),
 * and its time must still be ahead. The site's head of safety is told; the review engine asks the
 * workflow's reviewers (or leaves it to the approve right).
 */
export async function submitPermit(tx: Tx, deps: PermitsDeps, actor: Principal, id: string, now = new Date()): Promise<AfterCommit> {
  const { row, sharedWith } = await loadPermit(tx, actor, id, true);
  requireMove('submit', row, false);
  if (!isDraftAuthor({ requesterId: row.requesterId ?? '', sharedWith }, actor.userId)) {
    throw new AppError('forbidden', { messageKey: 'permits.errors.notYours' });
  }
  const template = await enabledTemplate(tx, row.templateId);
  const form = await sectionsOf(tx, template.id, true);
  const values = await valuesOf(tx, row);
  const checked = await checkRequest(
    tx,
    { permitId: row.id, uploader: actor.userId, sections: form, defaultHours: template.defaultHours, complete: true },
    values,
  );
  if (checked.end!.at.getTime() <= now.getTime()) throw new AppError('conflict', { messageKey: 'permits.errors.timePassed' });
  await writeRequest(tx, row.id, form, checked, values, now);
  await tx.update(permits).set({ status: 'requested', submittedAt: now, submittedBy: actor.userId }).where(eq(permits.id, row.id));
  await audit(tx, actor, 'permit_submitted', row.id, { status: { from: 'draft', to: 'requested' } });
  const review = await submitForReview(tx, deps, actor, 'permits', row.id);
  const site = checked.site!;
  const requester = await nameOf(tx, row.requesterId);
  const mail = await tellAbout(tx, deps, 'permit_requested', [site.headOfSafetyId], actor.userId, row, () => ({
    requestor_name: requester,
    site_name: site.name,
    start_time: mailTime(checked.start!.local, site.timeZone),
  }));
  return announce(deps, row, mail, review.afterCommit as AfterCommit);
}

/**
 * POST /api/permit_requests/{id}/approve and …/reject: decides what awaits a decision (the permit, its
 * extension, or a withdrawn extension's open round). The review engine says whose turn it is; with no
 * workflow the approve right decides and, of its holders, the move's own right (reject) is asked too.
 * Each decision is recorded (the issuing officers); the engine's hook moves the permit on
 * (./decided.ts) once the round ends.
 */
export async function decidePermit(
  tx: Tx,
  deps: PermitsDeps,
  actor: Principal,
  id: string,
  decision: { approve: boolean; comment: string | null },
  now = new Date(),
): Promise<AfterCommit> {
  const { row } = await loadPermit(tx, actor, id, true);
  const review = await reviewOf(tx, actor, 'permits', row.id);
  const extension = await pendingExtension(tx, row.id);
  if (review?.outcome !== 'pending') throw new AppError('conflict', { messageKey: 'permits.errors.nothingToDecide' });
  const what =
    row.status === 'requested'
      ? 'permit'
      : extension && isLiveStatus(row.status)
        ? 'extension'
        : row.status === 'revoked' || row.status === 'closed'
          ? 'settle'
          : null;
  if (!what) throw new AppError('conflict', { messageKey: 'permits.errors.nothingToDecide' });
  const command: PermitCommand =
    what === 'settle'
      ? 'settle_extension'
      : decision.approve
        ? what === 'permit'
          ? 'approve'
          : 'approve_extension'
        : what === 'permit'
          ? 'reject'
          : 'reject_extension';
  requireMove(command, row, extension !== null);
  const right = permitTransition(command).right;
  if (review.mode === 'approve_right' && right && !can(actor.access, 'Permit', right)) {
    throw new AppError('forbidden', { messageKey: 'permits.errors.notDecider' });
  }
  if (what === 'permit' && decision.approve && row.endAt && row.endAt.getTime() <= now.getTime()) {
    throw new AppError('conflict', { messageKey: 'permits.errors.timePassed' });
  }
  await audit(tx, actor, 'permit_decision', row.id, { decision: what, approve: decision.approve, comment: decision.comment });
  const { afterCommit } = await decideReview(tx, deps, actor, 'permits', row.id, decision);
  return announce(deps, row, [], afterCommit as AfterCommit);
}

/**
 * POST /api/permit_requests/{id}/extensions: more time, with the declaration; a review round like the
 * permit's. On approval the template's extension hours are added to the end (./decided.ts).
 */
export async function requestExtension(
  tx: Tx,
  deps: PermitsDeps,
  actor: Principal,
  id: string,
  declaration: string,
  now = new Date(),
): Promise<AfterCommit> {
  const { row } = await loadPermit(tx, actor, id, true);
  if (await pendingExtension(tx, row.id)) throw new AppError('conflict', { messageKey: 'permits.errors.extensionPending' });
  requireMove('request_extension', row, false);
  const template = await loadTemplate(tx, row.templateId);
  await tx.insert(permitExtensions).values({
    permitId: row.id,
    declaration,
    hours: template.extensionHours,
    requestedBy: actor.userId,
    requestedAt: now,
    endBefore: row.endAt!,
  });
  await audit(tx, actor, 'permit_extension_requested', row.id, { hours: template.extensionHours, declaration });
  const review = await submitForReview(tx, deps, actor, 'permits', row.id);
  const site = await headOfSafetyOf(tx, row.siteId);
  const by = await nameOf(tx, actor.userId);
  const mail = await tellAbout(tx, deps, 'permit_extension_requested', [site.id], actor.userId, row, () => ({
    requestor_name: by,
    site_name: site.name,
  }));
  return announce(deps, row, mail, review.afterCommit as AfterCommit);
}

/** A pending extension goes with a revoked or closed permit (its open round only ends, ./decided.ts). */
async function withdrawExtension(tx: Tx, actor: Principal, row: PermitRow, now: Date): Promise<void> {
  const ext = await pendingExtension(tx, row.id);
  if (!ext) return;
  await tx.update(permitExtensions).set({ state: 'withdrawn', decidedAt: now }).where(eq(permitExtensions.id, ext.id));
  await audit(tx, actor, 'permit_extension_withdrawn', row.id, { extension_id: ext.id });
}

/** Who a permit's end concerns: its requester, its issuing officers and the site's head of safety. */
export async function peopleOf(
  tx: Tx,
  row: PermitRow,
): Promise<{ ids: Array<string | null>; site: Awaited<ReturnType<typeof headOfSafetyOf>> }> {
  const site = await headOfSafetyOf(tx, row.siteId);
  const issuers = (await issuersOf(tx, [row.id])).get(row.id) ?? [];
  return { ids: [row.requesterId, ...issuers, site.id], site };
}

/** POST /api/permit_requests/{id}/revoke: work stopped, with the reason; everyone concerned is told. */
export async function revokePermit(
  tx: Tx,
  deps: PermitsDeps,
  actor: Principal,
  id: string,
  comment: string,
  now = new Date(),
): Promise<AfterCommit> {
  const { row } = await loadPermit(tx, actor, id, true);
  requireMove('revoke', row, (await pendingExtension(tx, row.id)) !== null);
  await tx
    .update(permits)
    .set({ status: 'revoked', revokedAt: now, revokedBy: actor.userId, revokeComment: comment, updatedAt: now })
    .where(eq(permits.id, row.id));
  await withdrawExtension(tx, actor, row, now);
  await audit(tx, actor, 'permit_revoked', row.id, { status: { from: row.status, to: 'revoked' }, comment });
  const { ids } = await peopleOf(tx, row);
  const by = await nameOf(tx, actor.userId);
  const mail = await tellAbout(tx, deps, 'permit_revoked', ids, actor.userId, row, () => ({ revoked_by: by, reason: comment }));
  return announce(deps, row, mail);
}

/**
 * POST /api/permit_requests/{id}/close: the closure checklist of the permit's own form (its required
 * answers; conditions may look at the request's answers), files uploaded by the closer.
 */
export async function closePermit(
  tx: Tx,
  deps: PermitsDeps,
  actor: Principal,
  id: string,
  body: { answers: Record<string, string | string[] | null>; comment: string | null },
  now = new Date(),
): Promise<AfterCommit> {
  const { row } = await loadPermit(tx, actor, id, true);
  requireMove('close', row, (await pendingExtension(tx, row.id)) !== null);
  const sections = formSections(row.form);
  const checked = checkAnswers(sections, body.answers, { phase: 'closure', complete: true, others: answerInputs(row.answers) });
  const fields: Record<string, string> = { ...checked.errors };
  const names = await checkMasters(tx, sections, checked.values, fields);
  for (const [fid, name] of await checkClosureFiles(tx, actor.userId, sections, checked.values, fields)) names.set(fid, name);
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
  const closure = storedAnswers(checked.values, names);
  await tx
    .update(permits)
    .set({ status: 'closed', closedAt: now, closedBy: actor.userId, closureAnswers: closure, closureComment: body.comment, updatedAt: now })
    .where(eq(permits.id, row.id));
  for (const [questionId, a] of Object.entries(closure)) {
    const q = sections.flatMap((s) => s.questions).find((x) => x.id === questionId);
    if (q?.type !== 'attachment') continue;
    for (const item of a.items)
      await tx.insert(permitFiles).values({ permitId: row.id, fileId: item.id, questionId }).onConflictDoNothing();
  }
  await withdrawExtension(tx, actor, row, now);
  await audit(tx, actor, 'permit_closed', row.id, { status: { from: row.status, to: 'closed' }, comment: body.comment });
  const site = await headOfSafetyOf(tx, row.siteId);
  const by = await nameOf(tx, actor.userId);
  const mail = await tellAbout(tx, deps, 'permit_closed', [row.requesterId, site.id], actor.userId, row, () => ({ closed_by: by }));
  return announce(deps, row, mail);
}
