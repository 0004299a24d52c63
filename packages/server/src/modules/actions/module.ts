import { actionPath } from '@bulwark/domain';
import { eq, inArray } from 'drizzle-orm';
import { inTenant } from '../../platform/db/db.js';
import { registerFileGate } from '../../platform/storage/gates.js';
import { registerFileLinks } from '../../platform/storage/links.js';
import type { ServerModule } from '../module.js';
import { mayReadAction, myActionCounts } from './queries.js';
import { actionRoutes } from './routes.js';
import { ACTIONS_SWEEP_QUEUE, sweepActions } from './sweep.js';
import { actionAttachments, actions } from './tables.js';

// An action's photo or document is for whoever may open the action.
registerFileGate('actions', async (tx, p, fileId) => {
  const linked = await tx
    .select({ sourceType: actions.sourceType, responsibleId: actions.responsibleId })
    .from(actionAttachments)
    .innerJoin(actions, eq(actions.id, actionAttachments.actionId))
    .where(eq(actionAttachments.fileId, fileId));
  if (linked.length === 0) return undefined;
  return linked.some((a) => mayReadAction(p, a));
});

// An action links its photos and documents: the storage screen names it, and the sweep leaves them.
registerFileLinks('actions', {
  column: actionAttachments.fileId,
  describe: async (tx, fileIds) =>
    (
      await tx
        .select({ fileId: actionAttachments.fileId, id: actions.id, serial: actions.serial, sourceType: actions.sourceType })
        .from(actionAttachments)
        .innerJoin(actions, eq(actions.id, actionAttachments.actionId))
        .where(inArray(actionAttachments.fileId, [...fileIds]))
    ).map((r) => ({ fileId: r.fileId, kind: 'action' as const, label: `#${r.serial}`, path: actionPath(r.sourceType, r.id) })),
});

/**
 * Actions of every source (spec 001 §2 Actions, §3, §4, §7): the lists, the detail with its history,
 * status changes along ACTION_TRANSITIONS, attachments, notifications, the hourly overdue sweep and
 * the get_actions push request. Source modules plug in through registerActionSource (service.ts).
 */
export const actionsModule: ServerModule = {
  name: 'actions',
  routes: actionRoutes,
  jobs: (deps) => ({
    handlers: {
      [ACTIONS_SWEEP_QUEUE]: async () => {
        await sweepActions(deps);
      },
    },
    schedules: [{ name: ACTIONS_SWEEP_QUEUE, cron: '15 * * * *' }],
  }),
  push: (deps) => ({
    get_actions: (p) => inTenant(deps.db.app, p.organizationId, (tx) => myActionCounts(tx, p.userId)),
  }),
};
