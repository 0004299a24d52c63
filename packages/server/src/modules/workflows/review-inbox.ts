import { can, REVIEW_MODULES, type ReviewModule } from '@bulwark/domain';
import { and, desc, eq, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { maybeReviewSubject } from './review-registry.js';
import { reviewReviewers, reviewRounds } from './tables.js';

/** A record whose review waits for this person now. */
export type WaitingReview = { module: ReviewModule; recordId: string; label: string; path: string; askedAt: Date };

const LIMIT = 10;

/**
 * Where a person is asked to decide now, newest first: their own asked place in a workflow round, a
 * late place escalated to them, and, for rounds without a workflow, every round of a module whose
 * approve right they hold. Their own submissions and records never count (`isExcluded`), as in `decide`.
 */
export async function reviewsWaitingFor(tx: Tx, p: Principal): Promise<WaitingReview[]> {
  const notMine = and(
    or(isNull(reviewRounds.submittedBy), ne(reviewRounds.submittedBy, p.userId)),
    or(isNull(reviewRounds.ownerId), ne(reviewRounds.ownerId, p.userId)),
  );
  const columns = {
    module: reviewRounds.module,
    recordId: reviewRounds.recordId,
    label: reviewRounds.recordLabel,
    path: reviewRounds.recordPath,
  };
  const asked = await tx
    .select({ ...columns, askedAt: reviewRounds.submittedAt })
    .from(reviewReviewers)
    .innerJoin(
      reviewRounds,
      and(eq(reviewRounds.organizationId, reviewReviewers.organizationId), eq(reviewRounds.id, reviewReviewers.roundId)),
    )
    .where(
      and(
        eq(reviewRounds.outcome, 'pending'),
        eq(reviewRounds.mode, 'workflow'),
        eq(reviewReviewers.state, 'current'),
        or(eq(reviewReviewers.userId, p.userId), eq(reviewReviewers.escalatedTo, p.userId)),
        notMine,
      ),
    )
    .orderBy(desc(reviewRounds.submittedAt))
    .limit(LIMIT * 5);
  const approvable = REVIEW_MODULES.filter((m) => {
    const subject = maybeReviewSubject(m);
    return subject !== undefined && can(p.access, subject.subject, 'approve');
  });
  const byRight =
    approvable.length === 0
      ? []
      : await tx
          .select({ ...columns, askedAt: reviewRounds.submittedAt })
          .from(reviewRounds)
          .where(
            and(
              eq(reviewRounds.outcome, 'pending'),
              eq(reviewRounds.mode, 'approve_right'),
              inArray(reviewRounds.module, approvable),
              notMine,
            ),
          )
          .orderBy(desc(reviewRounds.submittedAt))
          .limit(LIMIT);
  // One entry per record: several late places of one round may be escalated to the same person.
  const seen = new Set<string>();
  return [...asked, ...byRight]
    .filter((r) => !seen.has(r.recordId) && seen.add(r.recordId))
    .map((r) => ({ ...r, module: r.module as ReviewModule }))
    .sort((a, b) => b.askedAt.getTime() - a.askedAt.getTime())
    .slice(0, LIMIT);
}
