import type { HomeReview } from '@bulwark/domain';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { reviewsWaitingFor as waitingFor } from '../workflows/review-inbox.js';

/** "What waits for my review" on the home: the review engine's places where this person is asked now. */
export async function reviewsWaitingFor(tx: Tx, principal: Principal): Promise<HomeReview[]> {
  const waiting = await waitingFor(tx, principal);
  return waiting.map((r) => ({
    module: r.module,
    record_id: r.recordId,
    label: r.label,
    path: r.path,
    asked_at: r.askedAt.toISOString(),
  }));
}
