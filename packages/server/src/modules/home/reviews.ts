import type { HomeReview } from '@bulwark/domain';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';

/**
 * HOOK — "what waits for my review" on the home. The review engine (workflows/review.ts) answers per
 * record (`reviewOf`), not per person: it has no query of the places where a person is asked now. When
 * it gains one (e.g. `pendingReviewsOf(tx, principal)` over review_reviewers whose turn it is, the
 * escalation user's places included), read it here; until then the home says nothing waits.
 */
export async function reviewsWaitingFor(_tx: Tx, _principal: Principal): Promise<HomeReview[]> {
  return [];
}
