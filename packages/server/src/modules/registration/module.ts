import type { Principal } from '../../platform/auth/principal.js';
import { inTenant } from '../../platform/db/db.js';
import type { ServerModule } from '../module.js';
import { registrationRoutes } from './routes.js';
import { planOf, saasFeatures, sendTrialReminders, TRIAL_REMINDER_QUEUE } from './trial.js';

/**
 * Sign-up with an e-mailed code, the 14-day free trial (writes refused once it has ended, reminders
 * before), extension requests, and the plan push requests.
 */
export const registrationModule: ServerModule = {
  name: 'registration',
  routes: registrationRoutes,
  jobs: (deps) => ({
    handlers: {
      [TRIAL_REMINDER_QUEUE]: async () => {
        await sendTrialReminders(deps);
      },
    },
    schedules: [{ name: TRIAL_REMINDER_QUEUE, cron: '5 * * * *' }],
  }),
  push: (deps) => {
    const plan = (p: Principal) => inTenant(deps.db.app, p.organizationId, (tx) => planOf(tx, p.organization));
    return {
      get_plan: plan,
      get_subscription_plan: plan,
      get_saas_additional_features: async (p) => saasFeatures(p.organization),
    };
  },
};
