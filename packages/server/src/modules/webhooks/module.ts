import type { ServerModule } from '../module.js';
import { WEBHOOK_QUEUE, webhookJobHandler } from './deliver.js';
import { listenForWebhookEvents } from './events.js';
import { webhooksRoutes } from './routes.js';

/**
 * Webhooks (issue 19): endpoints an administrator registers, fed by the push events every module
 * already emits after its commits (platform/push's bus hook; docs/modules.md), delivered and retried
 * by the pg-boss job `webhook-deliver`.
 */
export const webhooksModule: ServerModule = {
  name: 'webhooks',
  routes: (r, deps) => {
    webhooksRoutes(r);
    listenForWebhookEvents(deps, (err) => r.app.log.error({ err }, 'webhook event not recorded'));
  },
  jobs: (deps) => ({ handlers: { [WEBHOOK_QUEUE]: webhookJobHandler(deps) } }),
};
