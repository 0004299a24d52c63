import { toursApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { markTourSeen, toursSeen } from './service.js';

/** The signed-in user's own guided tours: nobody reads or marks another person's. */
export function tourRoutes(r: Router) {
  const { deps } = r;

  r.route(api.seen, ({ tx, principal }) => toursSeen(tx, principal.userId));

  r.route(api.markSeen, async ({ tx, principal: p, body, afterCommit }) => {
    const first = await markTourSeen(tx, p.userId, body.tour_key);
    // The user's other tabs stop offering the tour.
    if (first) afterCommit(() => deps.push.toUser(p.userId, { channel: 'tours', change: 'created' }));
    return toursSeen(tx, p.userId);
  });
}
