import { inTenant } from '../../platform/db/db.js';
import type { ServerModule } from '../module.js';
import { myActionCounts } from './queries.js';
import { actionRoutes } from './routes.js';
import { ACTIONS_SWEEP_QUEUE, sweepActions } from './sweep.js';

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
