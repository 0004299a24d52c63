import { webhooksApi as api } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import { inTenant } from '../../platform/db/db.js';
import type { Router } from '../../platform/http/route.js';
import { deliverWebhook, queueDeliveries } from './deliver.js';
import {
  createEndpoint,
  createPing,
  deliveryView,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  rotateSecret,
  SUBSCRIBABLE_EVENTS,
  updateEndpoint,
} from './service.js';
import { webhookDeliveries } from './tables.js';

/** Webhook endpoints: the organisation's administrators (the contracts say `admin`). */
export function webhooksRoutes(r: Router) {
  const { deps } = r;
  r.route(api.list, async ({ tx }) => ({ endpoints: await listEndpoints(tx), events: SUBSCRIBABLE_EVENTS }));
  r.route(api.create, ({ tx, principal, body }) => createEndpoint(tx, deps, principal, body));
  r.route(api.update, async ({ tx, principal, params, body }) => ({
    endpoint: await updateEndpoint(tx, deps, principal, params.id, body),
  }));
  r.route(api.remove, async ({ tx, principal, params }) => {
    await removeEndpoint(tx, principal, params.id);
    return { ok: true as const };
  });
  r.route(api.rotateSecret, ({ tx, principal, params }) => rotateSecret(tx, deps, principal, params.id));
  r.route(api.deliveries, ({ tx, params, query }) => listDeliveries(tx, params.id, query));
  r.route(api.sendTest, async ({ tx, principal, params, afterCommit }) => {
    const row = await createPing(tx, principal, params.id);
    const answer = { delivery: deliveryView(row) };
    // The first attempt is made at once, after the commit and before the answer leaves, so the screen
    // shows the receiver's answer; a failure is left to the job's retries like any delivery.
    afterCommit(async () => {
      const outcome = await deliverWebhook(deps, { organizationId: principal.organizationId, id: row.id });
      if (outcome === 'retry') await queueDeliveries(deps, principal.organizationId, [row.id]);
      const [after] = await inTenant(deps.db.app, principal.organizationId, (t) =>
        t.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row.id)),
      );
      if (after) answer.delivery = deliveryView(after);
    });
    return answer;
  });
}
