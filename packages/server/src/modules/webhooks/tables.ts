import { boolean, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';
import type { WebhookDeliveryStatus, WebhookPayload } from '@bulwark/domain';

/** Typed views of migrations/0201_webhooks.sql. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    organizationId: orgId(),
    id: id(),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    events: text('events').array().notNull(),
    secretEnc: text('secret_enc').notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    organizationId: orgId(),
    id: id(),
    endpointId: uuid('endpoint_id').notNull(),
    event: text('event').notNull(),
    eventId: uuid('event_id').notNull(),
    payload: jsonb('payload').notNull().$type<WebhookPayload>(),
    status: text('status').notNull().default('pending').$type<WebhookDeliveryStatus>(),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastAttemptAt: ts('last_attempt_at'),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const webhookRecordStates = pgTable(
  'webhook_record_states',
  {
    organizationId: orgId(),
    subject: text('subject').notNull(),
    recordId: uuid('record_id').notNull(),
    status: text('status'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.subject, t.recordId] })],
);
