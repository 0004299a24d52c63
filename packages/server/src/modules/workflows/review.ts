/**
 * The review-workflow engine (issue 14), built once for incidents, permits, audits, HIRA and
 * observations. The interface, as agreed, plus two optional pieces (marked "added"):
 *
 *   registerReviewSubject(module, { subject, describe, onDecided, channel? })   // channel: added, optional
 *   submitForReview(tx, deps, principal, module, recordId) -> { review, afterCommit }
 *   decideReview(tx, deps, principal, module, recordId, { approve, comment }) -> { review, afterCommit }
 *   reviewOf(tx, principal, module, recordId) -> ReviewState | null
 *   sweepReviews(deps, now) -> { reminded, escalated }
 *   removeReviews(tx, module, recordId)                  // added: call when the module deletes a record
 *   isReviewerOf(tx, module, recordId, userId)           // added: for the module's read gate
 *   reviewerRemoved(tx, deps, userId) -> { afterCommit } // added: the users module's deactivation calls it
 *
 * `ReviewState` (domain `reviewStateSchema`) also carries `mode`: 'workflow' or 'approve_right'. A
 * workflow whose every reviewer is left out (they submitted or own the record) hands the round to the
 * approve right while `workflow` still names it; `workflow` is null only when no workflow matched.
 *
 * Every function that writes takes the request's `tx` and returns after-commit work: hand it to the
 * router's `afterCommit` (mails to delivery, notifications pushed, the module's channel announced).
 * Who may submit is the module's decision; the engine refuses a second submission while a round is
 * pending (409), and decisions by anyone who is not asked (403) or not yet asked (409).
 */
import { can, type ReviewModule, type ReviewState } from '@bulwark/domain';
import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import type { AfterCommit } from '../../platform/http/route.js';
import { advanceRound, askReviewer, closeRound } from './review-flow.js';
import { afterCommitOf, noEffects, type ReviewDeps } from './review-notify.js';
import { reviewSubject } from './review-registry.js';
import { replaceInFlight } from './review-replace.js';
import { addEvent, isExcluded, latestRound, pendingRound, placesOf, reviewState, slotsOf, updateSlot } from './review-store.js';
import { replaceRemovedReviewer } from './service.js';
import { reviewReviewers, reviewRounds, workflowReviewers, workflowSites, workflows } from './tables.js';

export type { ReviewModule, ReviewOutcome, ReviewState } from '@bulwark/domain';
export { registerReviewSubject, type ReviewRecord, type ReviewSubject } from './review-registry.js';
export { sweepReviews, REVIEWS_SWEEP_QUEUE } from './review-sweep.js';

/** The workflow of a record: one naming its form wins over one naming its site; the oldest first among equals. */
async function matchWorkflow(tx: Tx, module: ReviewModule, siteId: string, formId: string | null | undefined) {
  const byForm = formId ? sql<boolean>`${formId}::uuid = any(${workflows.formIds})` : null;
  const bySite = sql<boolean>`exists (select 1 from ${workflowSites} where ${workflowSites.workflowId} = ${workflows.id} and ${workflowSites.siteId} = ${siteId}::uuid)`;
  const [w] = await tx
    .select()
    .from(workflows)
    .where(and(eq(workflows.module, module), byForm ? or(byForm, bySite) : bySite))
    .orderBy(...(byForm ? [desc(byForm)] : []), asc(workflows.createdAt), asc(workflows.id))
    .limit(1);
  return w ?? null;
}

/** Submits a record: a new round with the workflow that matches it as it is now, or the approve right. */
export async function submitForReview(
  tx: Tx,
  deps: AppDeps,
  principal: Principal,
  module: ReviewModule,
  recordId: string,
): Promise<{ review: ReviewState; afterCommit: AfterCommit }> {
  const record = await reviewSubject(module).describe(tx, recordId);
  // Two submissions of one record at once: the second waits here and then finds the first's round.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`review:${module}:${recordId}`}, 0))`);
  if (await pendingRound(tx, module, recordId)) throw new AppError('conflict', { messageKey: 'reviews.errors.alreadyPending' });
  const previous = await latestRound(tx, module, recordId);
  const workflow = await matchWorkflow(tx, module, record.siteId, record.formId);
  const now = new Date();
  const [round] = await tx
    .insert(reviewRounds)
    .values({
      module,
      recordId,
      round: (previous?.round ?? 0) + 1,
      mode: workflow ? 'workflow' : 'approve_right',
      workflowId: workflow?.id ?? null,
      workflowTitle: workflow?.title ?? null,
      workflowType: workflow?.type ?? null,
      leadTimeHours: workflow?.leadTimeHours ?? null,
      escalationUserId: workflow?.escalationUserId ?? null,
      submittedBy: principal.userId,
      ownerId: record.ownerId,
      siteId: record.siteId,
      recordLabel: record.label,
      recordPath: record.path,
      submittedAt: now,
    })
    .returning();
  const effects = noEffects();
  effects.records.push(round!);
  await addEvent(tx, { roundId: round!.id, at: now, kind: 'submitted', actorId: principal.userId });

  if (workflow) {
    const reviewers = await tx
      .select({ userId: workflowReviewers.userId, position: workflowReviewers.position, status: users.status })
      .from(workflowReviewers)
      .innerJoin(users, and(eq(users.organizationId, workflowReviewers.organizationId), eq(users.id, workflowReviewers.userId)))
      .where(eq(workflowReviewers.workflowId, workflow.id))
      .orderBy(asc(workflowReviewers.position));
    for (const r of reviewers) {
      const own = isExcluded(round!, r.userId);
      const gone = r.status !== 'Active';
      await tx
        .insert(reviewReviewers)
        .values({ roundId: round!.id, position: r.position, userId: r.userId, state: own || gone ? 'skipped' : 'waiting' });
      if (own) await addEvent(tx, { roundId: round!.id, at: now, kind: 'skipped', reviewerId: r.userId });
      else if (gone) await addEvent(tx, { roundId: round!.id, at: now, kind: 'reviewer_replaced', reviewerId: r.userId });
    }
    const waiting = (await slotsOf(tx, round!.id)).filter((s) => s.state === 'waiting');
    // Parallel: everyone is asked at once; sequential: the first. Nobody left to ask: the approve right decides.
    if (workflow.type === 'parallel' && waiting.length > 0)
      for (const slot of waiting) await askReviewer(tx, deps, effects, round!, slot, now);
    else await advanceRound(tx, deps, effects, round!, now);
  }
  return {
    review: (await reviewState(tx, principal, module, recordId))!,
    afterCommit: afterCommitOf(deps, principal.organizationId, effects),
  };
}

/** Approves or rejects the pending round of a record as this principal (a reason is required to reject). */
export async function decideReview(
  tx: Tx,
  deps: AppDeps,
  principal: Principal,
  module: ReviewModule,
  recordId: string,
  decision: { approve: boolean; comment: string | null },
): Promise<{ review: ReviewState; afterCommit: AfterCommit }> {
  const subject = reviewSubject(module);
  const comment = decision.comment?.trim() || null;
  if (!decision.approve && !comment) throw new AppError('validation_failed', { fields: { comment: 'reviews.validation.reasonRequired' } });
  if (comment && comment.length > 2000) throw new AppError('validation_failed', { fields: { comment: 'validation.tooLong' } });
  const round = await pendingRound(tx, module, recordId, true);
  if (!round) throw new AppError('conflict', { messageKey: 'reviews.errors.notPending' });
  if (isExcluded(round, principal.userId)) throw new AppError('forbidden', { messageKey: 'reviews.errors.ownSubmission' });

  const now = new Date();
  const effects = noEffects();
  effects.records.push(round);
  const kind = decision.approve ? 'approved' : 'rejected';
  const by = { userId: principal.userId, comment };
  if (round.mode === 'approve_right') {
    if (!can(principal.access, subject.subject, 'approve')) throw new AppError('forbidden');
    await addEvent(tx, { roundId: round.id, at: now, kind, actorId: principal.userId, comment });
    await closeRound(tx, deps, effects, round, kind, by, now);
  } else {
    const slots = await slotsOf(tx, round.id);
    const places = placesOf(slots, principal.userId);
    if (places.length === 0) {
      const later = slots.some((s) => s.userId === principal.userId && s.state === 'waiting');
      throw later
        ? new AppError('conflict', { messageKey: 'reviews.errors.notYourTurn' })
        : new AppError('forbidden', { messageKey: 'reviews.errors.notReviewer' });
    }
    for (const place of places) {
      await updateSlot(tx, place, { state: kind, decidedAt: now, decidedBy: principal.userId, comment });
      await addEvent(tx, { roundId: round.id, at: now, kind, actorId: principal.userId, reviewerId: place.userId, comment });
    }
    if (decision.approve) await advanceRound(tx, deps, effects, round, now);
    else await closeRound(tx, deps, effects, round, 'rejected', by, now);
  }
  return {
    review: (await reviewState(tx, principal, module, recordId))!,
    afterCommit: afterCommitOf(deps, principal.organizationId, effects),
  };
}

/** The record's current round and every round's timeline, with what the viewer may do; null before any submission. */
export function reviewOf(tx: Tx, principal: Principal, module: ReviewModule, recordId: string): Promise<ReviewState | null> {
  return reviewState(tx, principal, module, recordId);
}

/** Whether this person reviews (or reviewed, or was escalated) the record in any round: modules let them read it. */
export async function isReviewerOf(tx: Tx, module: ReviewModule, recordId: string, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql`1` })
    .from(reviewReviewers)
    .innerJoin(
      reviewRounds,
      and(eq(reviewRounds.organizationId, reviewReviewers.organizationId), eq(reviewRounds.id, reviewReviewers.roundId)),
    )
    .where(
      and(
        eq(reviewRounds.module, module),
        eq(reviewRounds.recordId, recordId),
        or(eq(reviewReviewers.userId, userId), eq(reviewReviewers.escalatedTo, userId)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The module deletes a record: its rounds, reviewers and timeline go with it. */
export async function removeReviews(tx: Tx, module: ReviewModule, recordId: string): Promise<void> {
  await tx.delete(reviewRounds).where(and(eq(reviewRounds.module, module), eq(reviewRounds.recordId, recordId)));
}

/**
 * A user is deactivated or deleted (the users module calls this in that transaction): the account
 * creator replaces them in every workflow (replaceRemovedReviewer) and in every review in flight.
 */
export async function reviewerRemoved(tx: Tx, deps: ReviewDeps, userId: string): Promise<{ afterCommit: AfterCommit }> {
  const { replacementUserId } = await replaceRemovedReviewer(tx, userId);
  const effects = noEffects();
  await replaceInFlight(tx, deps, effects, userId, replacementUserId, new Date());
  const [org] = await tx.execute<{ id: string }>(sql`select app_current_org() as id`).then((r) => r.rows);
  return { afterCommit: afterCommitOf(deps, org!.id, effects) };
}
