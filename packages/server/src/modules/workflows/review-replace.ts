import { and, eq, inArray, or } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { advanceRound, askReviewer } from './review-flow.js';
import { mailReview, nameOf, type ReviewEffects } from './review-notify.js';
import { addEvent, isExcluded, slotsOf, updateSlot } from './review-store.js';
import { reviewReviewers, reviewRounds } from './tables.js';

/**
 * Spec 001 §6 for reviews in flight: a removed (deactivated or deleted) person's places in pending
 * rounds pass to the replacement (the account creator), who is asked at once where the removed person
 * was being asked. Where the replacement cannot take the place (they already review this round, they
 * submitted or own the record, or nobody is left), the place is left out and the round moves on.
 * A round escalating to the removed person escalates to the replacement instead (or to nobody).
 */
export async function replaceInFlight(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'mail'>,
  effects: ReviewEffects,
  userId: string,
  replacementId: string | null,
  now: Date,
): Promise<number> {
  const touched = await tx
    .selectDistinct({ id: reviewRounds.id })
    .from(reviewRounds)
    .leftJoin(
      reviewReviewers,
      and(eq(reviewReviewers.organizationId, reviewRounds.organizationId), eq(reviewReviewers.roundId, reviewRounds.id)),
    )
    .where(
      and(
        eq(reviewRounds.outcome, 'pending'),
        eq(reviewRounds.mode, 'workflow'),
        or(
          eq(reviewRounds.escalationUserId, userId),
          and(eq(reviewReviewers.userId, userId), inArray(reviewReviewers.state, ['waiting', 'current'])),
          and(eq(reviewReviewers.escalatedTo, userId), eq(reviewReviewers.state, 'current')),
        ),
      ),
    );
  if (touched.length === 0) return 0;
  const rounds = await tx
    .select()
    .from(reviewRounds)
    .where(
      inArray(
        reviewRounds.id,
        touched.map((r) => r.id),
      ),
    )
    .orderBy(reviewRounds.id)
    .for('update');

  for (const round of rounds) {
    const slots = await slotsOf(tx, round.id);
    const free = (id: string | null): id is string => id !== null && !isExcluded(round, id) && !slots.some((s) => s.userId === id);

    let escalationUserId = round.escalationUserId;
    if (escalationUserId === userId) {
      escalationUserId = free(replacementId) ? replacementId : null;
      await tx.update(reviewRounds).set({ escalationUserId }).where(eq(reviewRounds.id, round.id));
    }
    const current = { ...round, escalationUserId };

    const place = slots.find((s) => s.userId === userId && (s.state === 'waiting' || s.state === 'current'));
    if (place) {
      if (free(replacementId)) {
        // As in the workflow itself: the escalation user is never one of the reviewers.
        if (escalationUserId === replacementId) {
          escalationUserId = null;
          current.escalationUserId = null;
          await tx.update(reviewRounds).set({ escalationUserId }).where(eq(reviewRounds.id, round.id));
        }
        await updateSlot(tx, place, { userId: replacementId });
        if (place.state === 'current') await askReviewer(tx, deps, effects, current, { ...place, userId: replacementId }, now);
        await addEvent(tx, { roundId: round.id, at: now, kind: 'reviewer_replaced', reviewerId: userId, toId: replacementId });
      } else {
        await updateSlot(tx, place, { state: 'skipped' });
        await addEvent(tx, { roundId: round.id, at: now, kind: 'reviewer_replaced', reviewerId: userId, toId: null });
      }
    }

    // Late places that went to the removed person go to the round's (new) escalation user.
    for (const late of slots.filter((s) => s.state === 'current' && s.escalatedTo === userId && s.userId !== userId)) {
      await updateSlot(tx, late, { escalatedTo: escalationUserId });
      if (!escalationUserId) continue;
      await addEvent(tx, { roundId: round.id, at: now, kind: 'escalated', reviewerId: late.userId, toId: escalationUserId });
      await mailReview(tx, deps, effects, 'review_escalated', escalationUserId, current, { reviewer_name: await nameOf(tx, late.userId) });
    }

    await advanceRound(tx, deps, effects, current, now);
    effects.records.push(round);
  }
  return rounds.length;
}
