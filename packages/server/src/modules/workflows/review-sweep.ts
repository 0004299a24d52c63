import { and, eq, isNotNull, isNull, lte, or } from 'drizzle-orm';
import { inTenant } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { mailDate, mailReview, nameOf, noEffects, afterCommitOf } from './review-notify.js';
import { addEvent, isExcluded, updateSlot } from './review-store.js';
import { dueAfter } from './review-flow.js';
import { reviewReviewers, reviewRounds } from './tables.js';

export const REVIEWS_SWEEP_QUEUE = 'reviews-lead-time-sweep';
/** Lead times are whole hours: a sweep every quarter of an hour keeps a reminder within 15 minutes of its time. */
export const REVIEWS_SWEEP_CRON = '*/15 * * * *';

const asked = and(eq(reviewReviewers.state, 'current'), eq(reviewRounds.outcome, 'pending'), eq(reviewRounds.mode, 'workflow'));
const joinRound = and(eq(reviewRounds.organizationId, reviewReviewers.organizationId), eq(reviewRounds.id, reviewReviewers.roundId));
// Work left on a place: its reminder, or its escalation when the round has someone to escalate to.
const unfinished = or(
  isNull(reviewReviewers.remindedAt),
  and(isNull(reviewReviewers.escalatedAt), isNotNull(reviewRounds.escalationUserId)),
);

/**
 * The lead-time job. A reviewer asked and silent for one lead time is reminded (once); after a second
 * lead time the place escalates to the round's escalation user, who is told and may then decide in the
 * reviewer's stead. An escalation user who submitted or owns the record, or is no longer active, is
 * not escalated to. `now` is a parameter so tests can move time forward.
 */
export async function sweepReviews(deps: AppDeps, now: Date = new Date()): Promise<{ reminded: number; escalated: number }> {
  // The owner connection finds the organisations with work across every tenant; each is then swept in
  // its own tenant transaction.
  const orgs = await deps.db.owner
    .selectDistinct({ id: reviewReviewers.organizationId })
    .from(reviewReviewers)
    .innerJoin(reviewRounds, joinRound)
    .innerJoin(organizations, eq(organizations.id, reviewReviewers.organizationId))
    .where(and(asked, lte(reviewReviewers.dueAt, now), unfinished, isNull(organizations.deletedAt)));

  const total = { reminded: 0, escalated: 0 };
  for (const org of orgs) {
    const { afterCommit, reminded, escalated } = await inTenant(deps.db.app, org.id, async (tx) => {
      const rows = await tx
        .select({ slot: reviewReviewers, round: reviewRounds })
        .from(reviewReviewers)
        .innerJoin(reviewRounds, joinRound)
        .where(and(asked, lte(reviewReviewers.dueAt, now), unfinished))
        .orderBy(reviewReviewers.roundId, reviewReviewers.position)
        .for('update', { of: reviewReviewers });
      const effects = noEffects();
      let reminded = 0;
      let escalated = 0;
      for (const { slot, round } of rows) {
        const dueAt = slot.dueAt!;
        if (!slot.remindedAt) {
          await updateSlot(tx, slot, { remindedAt: now });
          await addEvent(tx, { roundId: round.id, at: now, kind: 'reminded', reviewerId: slot.userId });
          await mailReview(tx, deps, effects, 'review_reminder', slot.userId, round, {
            due_at: (lang, zone) => mailDate(dueAt, lang, zone),
          });
          effects.records.push(round);
          reminded += 1;
        }
        const to = round.escalationUserId;
        if (slot.escalatedAt || !to || dueAfter(round, dueAt) > now || isExcluded(round, to)) continue;
        const [active] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.id, to), eq(users.status, 'Active')));
        if (!active) continue;
        await updateSlot(tx, slot, { escalatedAt: now, escalatedTo: to });
        await addEvent(tx, { roundId: round.id, at: now, kind: 'escalated', reviewerId: slot.userId, toId: to });
        await mailReview(tx, deps, effects, 'review_escalated', to, round, { reviewer_name: await nameOf(tx, slot.userId) });
        effects.records.push(round);
        escalated += 1;
      }
      return { afterCommit: afterCommitOf(deps, org.id, effects), reminded, escalated };
    });
    await afterCommit();
    total.reminded += reminded;
    total.escalated += escalated;
  }
  return total;
}
