import { randomUUID } from 'node:crypto';
import type { PushEvent, WebhookChange, WebhookEvent, WebhookPayload } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { inTenant } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { queueDeliveries } from './deliver.js';
import { currentStatus, WEBHOOK_SOURCES, type WebhookSource } from './sources.js';
import { webhookDeliveries, webhookEndpoints, webhookRecordStates } from './tables.js';

/** The endpoints that may want an event of `subject`: active, and asking for one of its events. */
const listensTo = (subject: string) =>
  and(eq(webhookEndpoints.active, true), sql`exists (select 1 from unnest(${webhookEndpoints.events}) e where e like ${`${subject}.%`})`);

/**
 * Whether an endpoint of the organisation may want the event, in one statement and no transaction: on
 * the owner's connection, which row-level security does not wall (the organisation is named instead of
 * set), because nearly every organisation has no webhooks and each of its changes paid a transaction of
 * three round trips to learn it. Read after the change's commit, like the transaction that follows, it
 * misses no endpoint that transaction would have seen.
 */
async function anyListening(deps: Pick<AppDeps, 'db'>, organizationId: string, subject: string): Promise<boolean> {
  const [found] = await deps.db.owner
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, organizationId), listensTo(subject)))
    .limit(1);
  return found !== undefined;
}

/**
 * Turns a committed change into deliveries: the endpoints of the organisation that asked for the
 * event get one delivery each, in one transaction, queued after its commit. An organisation without an
 * active endpoint listening to the subject pays one small statement (anyListening), no transaction.
 */
export async function recordEvent(
  deps: Pick<AppDeps, 'db' | 'jobs'>,
  organizationId: string,
  source: WebhookSource,
  change: 'created' | 'updated',
  recordId: string,
  now = new Date(),
): Promise<string[]> {
  if (!(await anyListening(deps, organizationId, source.subject))) return [];
  const ids = await inTenant(deps.db.app, organizationId, async (tx) => {
    const endpoints = await tx
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(listensTo(source.subject));
    if (endpoints.length === 0) return [];
    // One event of a record at a time (until this transaction ends): two changes heard together must
    // not both read the same last status and both announce the same status change.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`webhook-state:${organizationId}:${source.subject}:${recordId}`}, 0))`,
    );
    const status = await currentStatus(tx, source, recordId);
    const [seen] = await tx
      .select({ status: webhookRecordStates.status })
      .from(webhookRecordStates)
      .where(and(eq(webhookRecordStates.subject, source.subject), eq(webhookRecordStates.recordId, recordId)));
    await tx
      .insert(webhookRecordStates)
      .values({ subject: source.subject, recordId, status, updatedAt: now })
      .onConflictDoUpdate({
        target: [webhookRecordStates.organizationId, webhookRecordStates.subject, webhookRecordStates.recordId],
        set: { status, updatedAt: now },
      });
    const changes: WebhookChange[] = change === 'created' ? ['created'] : ['updated'];
    if (change === 'updated' && seen && seen.status !== status) changes.push('status_changed');
    const [org] = await tx
      .select({ subDomain: organizations.subDomainName })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    const rows: Array<typeof webhookDeliveries.$inferInsert> = [];
    for (const c of changes) {
      const type = `${source.subject}.${c}` as WebhookEvent;
      const payload: WebhookPayload = {
        id: randomUUID(),
        type,
        created_at: now.toISOString(),
        organization: org?.subDomain ?? '',
        data: {
          id: recordId,
          status,
          ...(c === 'status_changed' ? { previous_status: seen?.status ?? null } : {}),
          path: source.path.replace('{id}', recordId),
        },
      };
      for (const e of endpoints) {
        if (e.events.includes(type)) rows.push({ endpointId: e.id, event: type, eventId: payload.id, payload, createdAt: now });
      }
    }
    if (rows.length === 0) return [];
    return (await tx.insert(webhookDeliveries).values(rows).returning({ id: webhookDeliveries.id })).map((r) => r.id);
  });
  await queueDeliveries(deps, organizationId, ids);
  return ids;
}

/** The bus hook (platform/push): every module event of a webhook source, once its change has committed. */
export function listenForWebhookEvents(deps: AppDeps, log: (err: unknown) => void): void {
  deps.push.onOrganizationEvent((organizationId: string, event: PushEvent) => {
    const source = WEBHOOK_SOURCES[event.channel];
    if (!source || !event.id || (event.change !== 'created' && event.change !== 'updated')) return;
    recordEvent(deps, organizationId, source, event.change, event.id).catch(log);
  });
}
