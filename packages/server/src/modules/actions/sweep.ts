import { actionDateIn, actionDaysBetween, translate, type ActionSource } from '@bulwark/domain';
import { and, eq, inArray, isNull, lte } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import { inTenant } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import type { QueuedTemplatedMail } from '../mailers/send.js';
import { sites } from '../sites/read.js';
import { mailAboutAction } from './notify.js';
import { afterCommitOf } from './service.js';
import { notifySources } from './sources.js';
import { actions } from './tables.js';

export const ACTIONS_SWEEP_QUEUE = 'actions-due-sweep';

export type SweepResult = { overdue: string[]; dueSoon: string[] };

/**
 * The hourly sweep. In each site's time zone: an open or in-progress action whose due date has passed
 * becomes overdue (history, source hook, the responsible person told once); one due tomorrow earns its
 * responsible person a single reminder. Reminders remember the due date they were for, so a new due
 * date arms them again. `now` is a parameter so tests can stand anywhere in time.
 */
export async function sweepActions(
  deps: Pick<AppDeps, 'db' | 'config' | 'mail' | 'jobs' | 'push'>,
  now: Date = new Date(),
): Promise<SweepResult> {
  // A date two days past UTC's bounds every site's "tomorrow" (time zones reach UTC+14).
  const horizon = new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
  const unfinished = inArray(actions.status, ['open', 'in_progress']);
  // The owner connection finds the organisations with work across every tenant; each is then swept
  // in its own tenant transaction.
  const orgs = await deps.db.owner
    .selectDistinct({ id: actions.organizationId })
    .from(actions)
    .innerJoin(organizations, eq(organizations.id, actions.organizationId))
    .where(and(unfinished, lte(actions.dueDate, horizon), isNull(organizations.deletedAt)));

  const result: SweepResult = { overdue: [], dueSoon: [] };
  for (const org of orgs) {
    const { afterCommit, overdue, dueSoon } = await inTenant(deps.db.app, org.id, async (tx) => {
      const rows = await tx
        .select({ a: actions, timeZone: sites.timeZone })
        .from(actions)
        .innerJoin(sites, and(eq(sites.organizationId, actions.organizationId), eq(sites.id, actions.siteId)))
        .where(and(unfinished, lte(actions.dueDate, horizon)))
        .for('update', { of: actions });
      const mail: Array<QueuedTemplatedMail | null> = [];
      const overdueIds: string[] = [];
      const dueSoonIds: string[] = [];
      const touched: Array<{ type: ActionSource; id: string | null }> = [];
      for (const { a, timeZone } of rows) {
        const today = actionDateIn(timeZone, now);
        const mailed = { id: a.id, serial: a.serial, description: a.description, dueDate: a.dueDate, sourceType: a.sourceType };
        if (a.dueDate < today) {
          await tx.update(actions).set({ status: 'overdue', overdueSentFor: a.dueDate, updatedAt: now }).where(eq(actions.id, a.id));
          await recordAudit(tx, {
            actorUserId: null,
            action: 'action_overdue',
            entity: 'Action',
            entityId: a.id,
            changes: { from: a.status, to: 'overdue', due_date: a.dueDate },
          });
          if (a.overdueSentFor !== a.dueDate) {
            mail.push(
              await mailAboutAction(tx, deps, 'action_overdue', a.responsibleId, mailed, {
                // "1 day", "3 days": the language's plural rule picks the word (issue 15: never "1 days").
                days_overdue: (lang) => translate(lang, 'home.days', { count: actionDaysBetween(a.dueDate, today) }),
              }),
            );
          }
          overdueIds.push(a.id);
          touched.push({ type: a.sourceType, id: a.sourceId });
        } else if (actionDaysBetween(today, a.dueDate) === 1 && a.dueSoonSentFor !== a.dueDate) {
          await tx.update(actions).set({ dueSoonSentFor: a.dueDate }).where(eq(actions.id, a.id));
          mail.push(await mailAboutAction(tx, deps, 'action_due_soon', a.responsibleId, mailed));
          dueSoonIds.push(a.id);
        }
      }
      const sources = await notifySources(tx, touched);
      return {
        afterCommit: afterCommitOf(
          deps,
          org.id,
          overdueIds.map((id) => ({ id, change: 'updated' as const })),
          mail,
          sources,
        ),
        overdue: overdueIds,
        dueSoon: dueSoonIds,
      };
    });
    await afterCommit();
    result.overdue.push(...overdue);
    result.dueSoon.push(...dueSoon);
  }
  return result;
}
