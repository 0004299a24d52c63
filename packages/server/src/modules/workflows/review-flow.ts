import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { mailDate, mailReview, nameOf, type ReviewEffects } from './review-notify.js';
import { reviewSubject } from './review-registry.js';
import { addEvent, slotsOf, updateSlot, type RoundRow, type SlotRow } from './review-store.js';
import { reviewReviewers, reviewRounds } from './tables.js';

type Deps = Pick<AppDeps, 'config' | 'mail'>;
const HOUR = 3_600_000;

export const dueAfter = (round: Pick<RoundRow, 'leadTimeHours'>, from: Date) =>
  new Date(from.getTime() + (round.leadTimeHours ?? 0) * HOUR);

/** Asks one reviewer now: their lead time starts, and they are told in the app and by mail. */
export async function askReviewer(tx: Tx, deps: Deps, effects: ReviewEffects, round: RoundRow, slot: SlotRow, now: Date): Promise<void> {
  const dueAt = dueAfter(round, now);
  await updateSlot(tx, slot, { state: 'current', dueAt, remindedAt: null, escalatedAt: null, escalatedTo: null });
  const submittedBy = await nameOf(tx, round.submittedBy);
  await mailReview(tx, deps, effects, 'review_requested', slot.userId, round, {
    submitted_by: submittedBy,
    due_at: (lang, zone) => mailDate(dueAt, lang, zone),
  });
}

/**
 * Ends a round: the record's module hears the outcome in this transaction, the places nobody acted on
 * go back to waiting, and the owner and the submitter (not the decider) are told.
 */
export async function closeRound(
  tx: Tx,
  deps: Deps,
  effects: ReviewEffects,
  round: RoundRow,
  outcome: 'approved' | 'rejected',
  by: { userId: string; comment: string | null },
  now: Date,
): Promise<void> {
  await tx.update(reviewRounds).set({ outcome, decidedAt: now }).where(eq(reviewRounds.id, round.id));
  await tx
    .update(reviewReviewers)
    .set({ state: 'waiting' })
    .where(and(eq(reviewReviewers.roundId, round.id), eq(reviewReviewers.state, 'current')));
  await addEvent(tx, { roundId: round.id, at: now, kind: 'closed', outcome });
  await reviewSubject(round.module).onDecided(tx, round.recordId, outcome, by);
  effects.records.push(round);

  const decider = await nameOf(tx, by.userId);
  const told = new Set([round.ownerId, round.submittedBy].filter((id): id is string => id !== null && id !== by.userId));
  for (const userId of told) {
    if (outcome === 'approved') {
      await mailReview(tx, deps, effects, 'review_approved', userId, round, { approved_by: decider, comment: by.comment ?? '—' });
    } else {
      await mailReview(tx, deps, effects, 'review_rejected', userId, round, { rejected_by: decider, reason: by.comment ?? '' });
    }
  }
}

/**
 * Moves a workflow round on after its places changed: in a sequential round the next waiting reviewer
 * is asked; once nobody is left to act the round is approved (by its last approval), or, when every
 * place was left out, handed to the approve right.
 */
export async function advanceRound(tx: Tx, deps: Deps, effects: ReviewEffects, round: RoundRow, now: Date): Promise<void> {
  if (round.mode !== 'workflow') return;
  const slots = await slotsOf(tx, round.id);
  const open = slots.filter((s) => s.state === 'waiting' || s.state === 'current');
  if (open.length > 0) {
    const next = open[0]!;
    if (round.workflowType === 'sequential' && next.state === 'waiting' && !open.some((s) => s.state === 'current')) {
      await askReviewer(tx, deps, effects, round, next, now);
    }
    return;
  }
  const approvals = slots.filter((s) => s.state === 'approved').sort((a, b) => a.decidedAt!.getTime() - b.decidedAt!.getTime());
  const last = approvals.at(-1);
  if (last) {
    await closeRound(tx, deps, effects, round, 'approved', { userId: last.decidedBy ?? last.userId, comment: last.comment }, now);
  } else {
    await tx.update(reviewRounds).set({ mode: 'approve_right' }).where(eq(reviewRounds.id, round.id));
  }
}
