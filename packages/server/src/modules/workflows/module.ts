import type { ServerModule } from '../module.js';
import { REVIEWS_SWEEP_CRON, REVIEWS_SWEEP_QUEUE, sweepReviews } from './review-sweep.js';
import { workflowRoutes } from './routes.js';

/** Workflow settings (who reviews what) and the review engine's lead-time job (reminders, escalations). */
export const workflowsModule: ServerModule = {
  name: 'workflows',
  routes: workflowRoutes,
  jobs: (deps) => ({
    handlers: {
      [REVIEWS_SWEEP_QUEUE]: async () => {
        await sweepReviews(deps);
      },
    },
    schedules: [{ name: REVIEWS_SWEEP_QUEUE, cron: REVIEWS_SWEEP_CRON }],
  }),
};
