import { randomBytes, randomUUID } from 'node:crypto';
import {
  pagination,
  pageWindow,
  WEBHOOK_EVENTS,
  WEBHOOK_PING,
  WEBHOOKS_PER_ORGANIZATION_MAX,
  type WebhookCreateBody,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookPayload,
  type WebhookUpdateBody,
} from '@bulwark/domain';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { checkWebhookUrl } from './address.js';
import { webhookSecretBox } from './deliver.js';
import { webhookDeliveries, webhookEndpoints } from './tables.js';

/** Webhook endpoints of the request's organisation (row-level security keeps it to one). */

type Deps = Pick<AppDeps, 'config'>;

export function deliveryView(row: typeof webhookDeliveries.$inferSelect): WebhookDelivery {
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    response_excerpt: row.responseExcerpt,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    delivered_at: row.deliveredAt?.toISOString() ?? null,
  };
}

export async function listEndpoints(tx: Tx, only?: string): Promise<WebhookEndpoint[]> {
  const rows = await tx
    .select()
    .from(webhookEndpoints)
    .where(only ? eq(webhookEndpoints.id, only) : undefined)
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  if (rows.length === 0) return [];
  const latest = await tx
    .selectDistinctOn([webhookDeliveries.endpointId])
    .from(webhookDeliveries)
    .where(
      inArray(
        webhookDeliveries.endpointId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(webhookDeliveries.endpointId, desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id));
  return rows.map((r) => {
    const last = latest.find((d) => d.endpointId === r.id);
    return {
      id: r.id,
      url: r.url,
      description: r.description,
      events: r.events,
      active: r.active,
      created_at: r.createdAt.toISOString(),
      last_delivery: last ? deliveryView(last) : null,
    };
  });
}

async function oneEndpoint(tx: Tx, id: string): Promise<WebhookEndpoint> {
  const [endpoint] = await listEndpoints(tx, id);
  if (!endpoint) throw new AppError('not_found');
  return endpoint;
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

export async function createEndpoint(tx: Tx, deps: Deps, p: Principal, body: WebhookCreateBody) {
  const url = checkWebhookUrl(body.url, deps.config.webhooksAllowLoopback);
  const [existing] = await tx.select({ n: count() }).from(webhookEndpoints);
  if (Number(existing?.n ?? 0) >= WEBHOOKS_PER_ORGANIZATION_MAX)
    throw new AppError('conflict', { messageKey: 'webhooks.validation.tooMany' });
  const secret = newSecret();
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({
      url,
      description: body.description,
      events: body.events,
      active: body.active,
      secretEnc: webhookSecretBox(deps.config.appSecret).seal(secret),
      createdBy: p.userId,
    })
    .returning({ id: webhookEndpoints.id });
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'create',
    entity: 'WebhookEndpoint',
    entityId: row!.id,
    changes: { url, events: body.events },
  });
  return { endpoint: await oneEndpoint(tx, row!.id), secret };
}

export async function updateEndpoint(tx: Tx, deps: Deps, p: Principal, id: string, body: WebhookUpdateBody): Promise<WebhookEndpoint> {
  await oneEndpoint(tx, id);
  const url = body.url === undefined ? undefined : checkWebhookUrl(body.url, deps.config.webhooksAllowLoopback);
  await tx
    .update(webhookEndpoints)
    .set({
      ...(url !== undefined ? { url } : {}),
      ...(body.events !== undefined ? { events: body.events } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.active !== undefined ? { active: body.active } : {}),
      updatedAt: new Date(),
    })
    .where(eq(webhookEndpoints.id, id));
  await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'WebhookEndpoint', entityId: id, changes: { ...body, url } });
  return oneEndpoint(tx, id);
}

export async function removeEndpoint(tx: Tx, p: Principal, id: string): Promise<void> {
  const [row] = await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ url: webhookEndpoints.url });
  if (!row) throw new AppError('not_found');
  await recordAudit(tx, { actorUserId: p.userId, action: 'delete', entity: 'WebhookEndpoint', entityId: id, changes: { url: row.url } });
}

export async function rotateSecret(tx: Tx, deps: Deps, p: Principal, id: string) {
  await oneEndpoint(tx, id);
  const secret = newSecret();
  await tx
    .update(webhookEndpoints)
    .set({ secretEnc: webhookSecretBox(deps.config.appSecret).seal(secret), updatedAt: new Date() })
    .where(eq(webhookEndpoints.id, id));
  await recordAudit(tx, { actorUserId: p.userId, action: 'secret_rotated', entity: 'WebhookEndpoint', entityId: id });
  return { endpoint: await oneEndpoint(tx, id), secret };
}

/** A `ping` delivery to one endpoint: what "send test" queues. */
export async function createPing(tx: Tx, p: Principal, id: string, now = new Date()) {
  await oneEndpoint(tx, id);
  const [org] = await tx
    .select({ subDomain: organizations.subDomainName })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  const payload: WebhookPayload = {
    id: randomUUID(),
    type: WEBHOOK_PING,
    created_at: now.toISOString(),
    organization: org?.subDomain ?? '',
    data: { id, status: null, path: null },
  };
  const [row] = await tx
    .insert(webhookDeliveries)
    .values({ endpointId: id, event: WEBHOOK_PING, eventId: payload.id, payload, createdAt: now })
    .returning();
  await recordAudit(tx, { actorUserId: p.userId, action: 'test_sent', entity: 'WebhookEndpoint', entityId: id });
  return row!;
}

export async function listDeliveries(tx: Tx, id: string, q: { page: number; per_page: number }) {
  await oneEndpoint(tx, id);
  const where = eq(webhookDeliveries.endpointId, id);
  const [total] = await tx.select({ n: count() }).from(webhookDeliveries).where(where);
  const { limit, offset } = pageWindow(q);
  const rows = await tx
    .select()
    .from(webhookDeliveries)
    .where(and(where))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit)
    .offset(offset);
  return { deliveries: rows.map(deliveryView), pagination: pagination(Number(total?.n ?? 0), q.page, q.per_page) };
}

export const SUBSCRIBABLE_EVENTS: string[] = [...WEBHOOK_EVENTS];
