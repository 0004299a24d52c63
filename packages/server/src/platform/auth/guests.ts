import { AppError } from '../errors.js';
import type { Principal } from './principal.js';

/**
 * Guests (DECISIONS): principals of their own kind that report observations and incidents and follow
 * their own reports, nothing else. The router refuses a guest every route whose contract does not
 * admit guests (EndpointDef.guests, http/access.ts); the handlers of the `own` routes narrow with
 * these helpers, on the server, whatever the web asks:
 * - a list filters by `guestReporter(p)` (the guest's own reports, never anyone else's);
 * - one record reported by someone else is "not found" (`refuseUnlessOwnReport`);
 * - what a guest is shown names no other person (no actions, no other actor in the history).
 *
 * Incidents, once built, hook in the same way: mark their create, upload, list and detail contracts
 * `guests: 'own'` and call these two with the incident's reporter.
 */
export function guestReporter(p: Principal): string | undefined {
  return p.kind === 'guest' ? p.userId : undefined;
}

/** A guest asking for a report it did not make hears "not found", exactly as for an unknown id. */
export function refuseUnlessOwnReport(p: Principal, reporterId: string | null): void {
  if (p.kind === 'guest' && reporterId !== p.userId) throw new AppError('not_found');
}
