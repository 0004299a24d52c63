import type { ActionSource, ActionStatus, ControlType } from '@bulwark/domain';
import { date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0100_actions.sql. */
export const actionSerials = pgTable('action_serials', {
  organizationId: orgId().primaryKey(),
  lastSerial: integer('last_serial').notNull(),
});

export const actions = pgTable(
  'actions',
  {
    organizationId: orgId(),
    id: id(),
    serial: integer('serial').notNull(),
    sourceType: text('source_type').notNull().$type<ActionSource>(),
    sourceId: uuid('source_id'),
    siteId: uuid('site_id').notNull(),
    description: text('description').notNull(),
    controlType: text('control_type').notNull().$type<ControlType>(),
    categoryId: uuid('category_id'),
    responsibleId: uuid('responsible_id'),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    status: text('status').notNull().default('open').$type<ActionStatus>(),
    remarks: text('remarks'),
    imageDescription: text('image_description'),
    completedAt: ts('completed_at'),
    completedBy: uuid('completed_by'),
    closedAt: ts('closed_at'),
    closedBy: uuid('closed_by'),
    dueSoonSentFor: date('due_soon_sent_for', { mode: 'string' }),
    overdueSentFor: date('overdue_sent_for', { mode: 'string' }),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

/** What the lists count, kept by a trigger on actions (migrations/0211_action_speed.sql). */
export const actionCounts = pgTable(
  'action_counts',
  {
    organizationId: orgId(),
    sourceType: text('source_type').notNull().$type<ActionSource>(),
    siteId: uuid('site_id').notNull(),
    controlType: text('control_type').notNull().$type<ControlType>(),
    status: text('status').notNull().$type<ActionStatus>(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.sourceType, t.siteId, t.controlType, t.status] })],
);

export const actionAttachments = pgTable(
  'action_attachments',
  {
    organizationId: orgId(),
    actionId: uuid('action_id').notNull(),
    fileId: uuid('file_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.actionId, t.fileId] })],
);
