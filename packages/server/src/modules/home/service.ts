import { actionDateIn, can, HOME_LIST_SIZE, type HomeContacts, type HomeResponse } from '@bulwark/domain';
import { and, asc, eq, or } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { roles, users } from '../../platform/db/schema.js';
import { myActionCounts, myUnfinishedActions } from '../actions/read.js';
import { openByRiskInMonth, reportedBy } from '../observations/read.js';
import { reviewsWaitingFor } from './reviews.js';

/**
 * The home of one person, read through the other modules' read functions. What the person may not read
 * is left out: the organisation's observations need Observation read; their own actions and reports are
 * always theirs to see.
 */
export async function homeOf(tx: Tx, p: Principal, now = new Date()): Promise<HomeResponse> {
  const today = actionDateIn(p.organization.timezone, now);
  const month = today.slice(0, 7);
  // One after another: the queries share the request's transaction, and one connection runs one query at a time.
  const counts = await myActionCounts(tx, p.userId);
  const items = await myUnfinishedActions(tx, p.userId, HOME_LIST_SIZE);
  const reports = await reportedBy(tx, p.userId, HOME_LIST_SIZE);
  const reviews = await reviewsWaitingFor(tx, p);
  const byRisk = can(p.access, 'Observation', 'read') ? await openByRiskInMonth(tx, month) : null;
  return {
    today,
    my_actions: { ...counts, items },
    my_reports: reports,
    my_reviews: reviews,
    open_observations_by_risk: byRisk ? { month, total: Object.values(byRisk).reduce((a, b) => a + b, 0), by_risk: byRisk } : null,
  };
}

/** The organisation's active administrators (own flag or an admin role), oldest first: whom to ask for access. */
export async function administrators(tx: Tx): Promise<HomeContacts> {
  const rows = await tx
    .select({ full_name: users.fullName, email: users.email })
    .from(users)
    .leftJoin(roles, and(eq(roles.organizationId, users.organizationId), eq(roles.id, users.roleId)))
    .where(
      and(
        eq(users.status, 'Active'),
        eq(users.isPlatformAdmin, false),
        eq(users.isGuest, false),
        or(eq(users.isAdmin, true), eq(roles.grantsAdmin, true)),
      ),
    )
    .orderBy(asc(users.createdAt))
    .limit(5);
  return { administrators: rows };
}
