import {
  PRODUCT_NAME,
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_SIGNATURE_HEADER,
} from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { SendOptions } from 'pg-boss';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { createSecretBox, type SecretBox } from '../sso/secret-box.js';
import { AddressRefused, deliveryAddress } from './address.js';
import { postJson, type PostOutcome } from './post.js';
import { signWebhook } from './signature.js';
import { webhookDeliveries, webhookEndpoints } from './tables.js';

export const WEBHOOK_QUEUE = 'webhook-deliver';

/**
 * pg-boss's retry policy of a delivery: 30 s, doubling with jitter, at most an hour apart; 40 tries
 * cover more than a day, and `deliverWebhook` itself gives up once the event is a day old.
 */
export const WEBHOOK_RETRY: SendOptions = { retryLimit: 40, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 60 };

export type DeliveryJob = { organizationId: string; id: string };
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'skipped';

export function webhookSecretBox(appSecret: string): SecretBox {
  return createSecretBox(appSecret, 'webhook-secrets');
}

/** What an attempt that reached nothing, or was refused, leaves on the row. */
function attemptRecord(outcome: PostOutcome | { kind: 'refused' }) {
  switch (outcome.kind) {
    case 'answered':
      return { responseStatus: outcome.status, responseExcerpt: outcome.excerpt, error: null };
    case 'timeout':
      return { responseStatus: null, responseExcerpt: null, error: 'webhooks.errors.timeout' };
    case 'unreachable':
      return { responseStatus: null, responseExcerpt: outcome.reason, error: 'webhooks.errors.unreachable' };
    case 'refused':
      return { responseStatus: null, responseExcerpt: null, error: 'webhooks.errors.privateAddress' };
  }
}

/**
 * One attempt at one delivery (the job `webhook-deliver`; `now` for tests). A 2xx answer delivers it;
 * any other answer, a timeout or an unreachable host asks pg-boss to retry (`retry`), until the event
 * is a day old. An address that resolves into a private network, a paused or removed endpoint, or an
 * unreadable secret fail it at once.
 */
export async function deliverWebhook(
  deps: Pick<AppDeps, 'db' | 'config' | 'push'>,
  job: DeliveryJob,
  now = new Date(),
): Promise<DeliveryOutcome> {
  const found = await inTenant(deps.db.app, job.organizationId, async (tx) => {
    const [row] = await tx
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(
        webhookEndpoints,
        and(eq(webhookEndpoints.organizationId, webhookDeliveries.organizationId), eq(webhookEndpoints.id, webhookDeliveries.endpointId)),
      )
      .where(eq(webhookDeliveries.id, job.id));
    return row;
  });
  if (!found || found.delivery.status !== 'pending') return 'skipped';
  const { delivery, endpoint } = found;

  const finish = async (
    status: 'pending' | 'delivered' | 'failed',
    fields: Partial<typeof webhookDeliveries.$inferInsert>,
    attempted: boolean,
  ) => {
    await inTenant(deps.db.app, job.organizationId, (tx) =>
      tx
        .update(webhookDeliveries)
        .set({
          ...fields,
          status,
          ...(attempted ? { attempts: sql`${webhookDeliveries.attempts} + 1`, lastAttemptAt: now } : {}),
          ...(status === 'delivered' ? { deliveredAt: now } : {}),
        })
        .where(eq(webhookDeliveries.id, delivery.id)),
    );
    deps.push.toOrganization(job.organizationId, { channel: 'webhooks', change: 'updated', id: endpoint.id });
  };

  if (!endpoint.active) {
    await finish('failed', { error: 'webhooks.errors.removedEndpoint' }, false);
    return 'failed';
  }
  if (now.getTime() - delivery.createdAt.getTime() > WEBHOOK_RETRY_HOURS * 3_600_000) {
    await finish('failed', { error: 'webhooks.errors.gaveUp' }, false);
    return 'failed';
  }
  const secret = webhookSecretBox(deps.config.appSecret).open(endpoint.secretEnc);
  if (secret === null) {
    await finish('failed', { error: 'webhooks.errors.removedEndpoint' }, false);
    return 'failed';
  }

  const url = new URL(endpoint.url);
  let pinned: { address: string; family: 4 | 6 };
  try {
    pinned = await deliveryAddress(url, deps.config.webhooksAllowLoopback);
  } catch (err) {
    if (err instanceof AddressRefused) {
      await finish('failed', attemptRecord({ kind: 'refused' }), true);
      return 'failed';
    }
    // The name did not resolve (yet): like an unreachable host, worth another try.
    await finish('pending', attemptRecord({ kind: 'unreachable', reason: (err as NodeJS.ErrnoException).code ?? 'DNS' }), true);
    return 'retry';
  }

  const body = JSON.stringify(delivery.payload);
  const outcome = await postJson(url, pinned, body, {
    'user-agent': `${PRODUCT_NAME.replace(/\s+/g, '-')}-Webhooks/1`,
    [WEBHOOK_EVENT_HEADER]: delivery.event,
    [WEBHOOK_DELIVERY_HEADER]: delivery.id,
    [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, body, Math.floor(now.getTime() / 1000)),
  });
  const ok = outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300;
  await finish(ok ? 'delivered' : 'pending', attemptRecord(outcome), true);
  return ok ? 'delivered' : 'retry';
}

/** The pg-boss handler: a `retry` outcome throws, so that pg-boss tries again on the queue's backoff. */
export function webhookJobHandler(deps: AppDeps) {
  return async (data: Record<string, unknown>) => {
    const job = { organizationId: String(data.organizationId), id: String(data.id) };
    const outcome = await deliverWebhook(deps, job);
    if (outcome === 'retry') throw new Error(`webhook delivery ${job.id} was not accepted: pg-boss tries again later`);
  };
}

/** Queues deliveries after their commit (nothing is sent on a node without job workers; see docs/modules.md). */
export async function queueDeliveries(deps: Pick<AppDeps, 'jobs'>, organizationId: string, ids: string[]): Promise<void> {
  for (const id of ids) await deps.jobs?.send(WEBHOOK_QUEUE, { organizationId, id }, WEBHOOK_RETRY);
}
