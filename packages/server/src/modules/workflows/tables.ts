import type { WorkflowModule, WorkflowType } from '@bulwark/domain';
import { integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0055_workflows.sql. */
export const workflows = pgTable(
  'workflows',
  {
    organizationId: orgId(),
    id: id(),
    title: text('title').notNull(),
    module: text('module').notNull().$type<WorkflowModule>(),
    type: text('type').notNull().$type<WorkflowType>(),
    leadTimeDays: integer('lead_time_days').notNull(),
    escalationUserId: uuid('escalation_user_id'),
    formIds: uuid('form_ids').array().notNull().default([]),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const workflowReviewers = pgTable(
  'workflow_reviewers',
  {
    organizationId: orgId(),
    workflowId: uuid('workflow_id').notNull(),
    position: smallint('position').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.workflowId, t.position] })],
);

export const workflowSites = pgTable(
  'workflow_sites',
  {
    organizationId: orgId(),
    workflowId: uuid('workflow_id').notNull(),
    siteId: uuid('site_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.workflowId, t.siteId] })],
);
