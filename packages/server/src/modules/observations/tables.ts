import type { ObservationRiskLevel, ObservationSource, ObservationStatus, ObservationType } from '@bulwark/domain';
import { boolean, date, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0110_observations.sql. */
export const observationSerials = pgTable('observation_serials', {
  organizationId: orgId().primaryKey(),
  lastSerial: integer('last_serial').notNull(),
});

export const observations = pgTable(
  'observations',
  {
    organizationId: orgId(),
    id: id(),
    serial: integer('serial').notNull(),
    type: text('type').notNull().$type<ObservationType>(),
    categoryId: uuid('category_id'),
    subCategoryId: uuid('sub_category_id'),
    description: text('description').notNull(),
    siteId: uuid('site_id').notNull(),
    siteNodeId: uuid('site_node_id'),
    observedAt: ts('observed_at').notNull(),
    /** The site's wall-clock time, 'YYYY-MM-DD HH:mm:ss' as PostgreSQL prints a timestamp. */
    observedLocal: timestamp('observed_local', { mode: 'string' }).notNull(),
    riskLevel: text('risk_level').notNull().$type<ObservationRiskLevel>(),
    actionRequired: boolean('action_required').notNull(),
    comment: text('comment').notNull(),
    anonymous: boolean('anonymous').notNull().default(false),
    reporterId: uuid('reporter_id'),
    reporterName: text('reporter_name'),
    reporterEmail: text('reporter_email'),
    source: text('source').notNull().$type<ObservationSource>(),
    status: text('status').notNull().default('open').$type<ObservationStatus>(),
    closingRemarks: text('closing_remarks'),
    closedAt: ts('closed_at'),
    closedBy: uuid('closed_by'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const observationAttachments = pgTable(
  'observation_attachments',
  {
    organizationId: orgId(),
    observationId: uuid('observation_id').notNull(),
    fileId: uuid('file_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.observationId, t.fileId] })],
);

/** migrations/0130_observation_counts.sql: observations per local day and status, kept by a trigger. */
export const observationDayCounts = pgTable(
  'observation_day_counts',
  {
    organizationId: orgId(),
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').$type<ObservationStatus>().notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.status] })],
);
