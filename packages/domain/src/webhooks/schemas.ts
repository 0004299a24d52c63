import { z } from 'zod';
import { listEnvelope, listQuery } from '../api/shared.js';

/**
 * Webhooks (issue 19): an administrator registers HTTPS endpoints for chosen events. Each delivery is
 * signed (HMAC-SHA256 of `<timestamp>.<body>` with the endpoint's own secret, in the
 * `Bulwark-Signature: t=<unix seconds>,v1=<hex>` header), queued after the commit, and retried with
 * backoff for a day. The body is small on purpose: the event, the record's id, status and API path;
 * the receiver reads the record itself with an API token.
 */

export const WEBHOOK_SUBJECTS = ['observation', 'incident', 'action', 'permit', 'audit'] as const;
export type WebhookSubject = (typeof WEBHOOK_SUBJECTS)[number];
export const WEBHOOK_CHANGES = ['created', 'updated', 'status_changed'] as const;
export type WebhookChange = (typeof WEBHOOK_CHANGES)[number];
export const WEBHOOK_EVENTS = WEBHOOK_SUBJECTS.flatMap((s) => WEBHOOK_CHANGES.map((c) => `${s}.${c}` as const));
export type WebhookEvent = `${WebhookSubject}.${WebhookChange}`;
/** What the "send test" button sends; never subscribed to. */
export const WEBHOOK_PING = 'ping';

/** The headers of a delivery. */
export const WEBHOOK_SIGNATURE_HEADER = 'bulwark-signature';
export const WEBHOOK_EVENT_HEADER = 'bulwark-event';
export const WEBHOOK_DELIVERY_HEADER = 'bulwark-delivery';
/** A receiver refuses a signature whose timestamp is further than this from its clock (replay). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/** Deliveries are retried with backoff for this long after the event, then given up. */
export const WEBHOOK_RETRY_HOURS = 24;
export const WEBHOOK_TIMEOUT_SECONDS = 10;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
export const WEBHOOKS_PER_ORGANIZATION_MAX = 20;
/** How much of a receiver's answer is kept to show in the deliveries list. */
export const WEBHOOK_RESPONSE_EXCERPT = 1000;

const invalid = { message: 'validation.invalid' };
const requiredOrInvalid = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null || iss.input === '' ? 'validation.required' : 'validation.invalid';

export const webhookEventSchema = z.enum(WEBHOOK_EVENTS as [WebhookEvent, ...WebhookEvent[]], invalid);

const url = z
  .string({ error: requiredOrInvalid })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(WEBHOOK_URL_MAX, { message: 'validation.tooLong' });
const events = z
  .array(webhookEventSchema, invalid)
  .min(1, { message: 'webhooks.validation.noEvent' })
  .max(WEBHOOK_EVENTS.length, invalid)
  .transform((list) => [...new Set(list)]);
const description = z.string(invalid).trim().max(WEBHOOK_DESCRIPTION_MAX, { message: 'validation.tooLong' });

export const webhookCreateBody = z.object({
  url,
  events,
  description: description.optional().transform((v) => v ?? ''),
  active: z
    .boolean(invalid)
    .optional()
    .transform((v) => v ?? true),
});
export type WebhookCreateBody = z.infer<typeof webhookCreateBody>;

export const webhookUpdateBody = z
  .object({ url: url.optional(), events: events.optional(), description: description.optional(), active: z.boolean(invalid).optional() })
  .strict();
export type WebhookUpdateBody = z.infer<typeof webhookUpdateBody>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  /** The receiver's HTTP status of the last attempt; null when it could not be reached. */
  response_status: z.number().nullable(),
  /** The start of the receiver's answer (text), or why it could not be reached. */
  response_excerpt: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  created_at: z.string(),
  /** The newest delivery, to show the endpoint's health at a glance. */
  last_delivery: webhookDeliverySchema.nullable(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookListResponse = z.object({ endpoints: z.array(webhookEndpointSchema), events: z.array(z.string()) });
export type WebhookListResponse = z.infer<typeof webhookListResponse>;
export const webhookResponse = z.object({ endpoint: webhookEndpointSchema });
export type WebhookResponse = z.infer<typeof webhookResponse>;
/** Creating an endpoint, or rotating its secret, is the only time the secret is shown. */
export const webhookSecretResponse = z.object({ endpoint: webhookEndpointSchema, secret: z.string() });
export type WebhookSecretResponse = z.infer<typeof webhookSecretResponse>;

export const webhookDeliveriesQuery = listQuery.pick({ page: true, per_page: true });
export const webhookDeliveriesResponse = listEnvelope('deliveries', webhookDeliverySchema);
export type WebhookDeliveriesResponse = z.infer<typeof webhookDeliveriesResponse>;
export const webhookTestResponse = z.object({ delivery: webhookDeliverySchema });

/** The body every delivery carries. */
export type WebhookPayload = {
  /** The event's own id: the same in every endpoint's delivery of it, so a receiver can ignore repeats. */
  id: string;
  type: WebhookEvent | typeof WEBHOOK_PING;
  created_at: string;
  organization: string;
  data: { id: string; status: string | null; previous_status?: string | null; path: string | null };
};
