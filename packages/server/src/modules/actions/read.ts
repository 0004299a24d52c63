import { actionPath, type ActionSource, type HomeAction } from '@bulwark/domain';
import { and, asc, eq, inArray, sql, type AnyColumn } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { sites } from '../sites/read.js';
import { myActionCounts } from './queries.js';
import { actions } from './tables.js';

export { myActionCounts };

/** Statuses that still need the responsible person's work. */
const UNFINISHED = ['open', 'in_progress', 'overdue'] as const;

/**
 * What other modules may read of actions (the home, for now). A person always reads the actions they
 * are responsible for (mayReadAction), so no right is asked here.
 */
export async function myUnfinishedActions(tx: Tx, userId: string, limit: number): Promise<HomeAction[]> {
  const rows = await tx
    .select({
      id: actions.id,
      serial: actions.serial,
      description: actions.description,
      status: actions.status,
      dueDate: actions.dueDate,
      sourceType: actions.sourceType,
      siteName: sites.name,
    })
    .from(actions)
    .innerJoin(sites, and(eq(sites.organizationId, actions.organizationId), eq(sites.id, actions.siteId)))
    .where(and(eq(actions.responsibleId, userId), inArray(actions.status, [...UNFINISHED])))
    // The most pressing first: overdue ones, then the nearest due date.
    .orderBy(sql`${actions.status} = 'overdue' desc`, asc(actions.dueDate), asc(actions.serial))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    serial: r.serial,
    description: r.description,
    status: r.status,
    due_date: r.dueDate,
    site_name: r.siteName,
    path: actionPath(r.sourceType, r.id),
  }));
}

/**
 * How many actions a record of `type` has, and how many of them are done (completed or closed), as
 * subqueries correlated with the record's `organizationId` and `id` columns (the index actions_source):
 * for a list export, which reads them with each page rather than by a query of the page's ids.
 */
export function actionCountsOf(type: ActionSource, organizationId: AnyColumn, id: AnyColumn) {
  const mine = sql`${actions.organizationId} = ${organizationId} and ${actions.sourceType} = ${type} and ${actions.sourceId} = ${id}`;
  return {
    total: sql<number>`(select count(*)::int from ${actions} where ${mine})`,
    done: sql<number>`(select count(*)::int from ${actions} where ${mine} and ${actions.status} in ('completed', 'closed'))`,
  };
}
