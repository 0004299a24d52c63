import type { ReviewEventKind, ReviewMode, ReviewOutcome, ReviewerState, WorkflowModule, WorkflowType } from '@bulwark/domain';
import { bigint, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0055_workflows.sql (lead time in hours since 0150). */
export const workflows = pgTable(
  'workflows',
  {
    organizationId: orgId(),
    id: id(),
    title: text('title').notNull(),
    module: text('module').notNull().$type<WorkflowModule>(),
    type: text('type').notNull().$type<WorkflowType>(),
    /** Hours each reviewer has before a reminder (0150). */
    leadTimeHours: integer('lead_time_hours').notNull(),
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

/** Typed views of migrations/0150_review_workflows.sql: rounds, their reviewers, the timeline. */
export const reviewRounds = pgTable(
  'review_rounds',
  {
    organizationId: orgId(),
    id: id(),
    module: text('module').notNull().$type<WorkflowModule>(),
    recordId: uuid('record_id').notNull(),
    round: integer('round').notNull(),
    mode: text('mode').notNull().$type<ReviewMode>(),
    workflowId: uuid('workflow_id'),
    workflowTitle: text('workflow_title'),
    workflowType: text('workflow_type').$type<WorkflowType>(),
    leadTimeHours: integer('lead_time_hours'),
    escalationUserId: uuid('escalation_user_id'),
    outcome: text('outcome').notNull().default('pending').$type<ReviewOutcome>(),
    submittedBy: uuid('submitted_by'),
    ownerId: uuid('owner_id'),
    siteId: uuid('site_id'),
    recordLabel: text('record_label').notNull(),
    recordPath: text('record_path').notNull(),
    submittedAt: ts('submitted_at').notNull(),
    decidedAt: ts('decided_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const reviewReviewers = pgTable(
  'review_reviewers',
  {
    organizationId: orgId(),
    roundId: uuid('round_id').notNull(),
    position: smallint('position').notNull(),
    userId: uuid('user_id').notNull(),
    state: text('state').notNull().$type<ReviewerState>(),
    dueAt: ts('due_at'),
    remindedAt: ts('reminded_at'),
    escalatedAt: ts('escalated_at'),
    escalatedTo: uuid('escalated_to'),
    decidedAt: ts('decided_at'),
    decidedBy: uuid('decided_by'),
    comment: text('comment'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.roundId, t.position] })],
);

export const reviewEvents = pgTable(
  'review_events',
  {
    organizationId: orgId(),
    id: id(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    roundId: uuid('round_id').notNull(),
    at: ts('at').notNull(),
    kind: text('kind').notNull().$type<ReviewEventKind>(),
    actorId: uuid('actor_id'),
    reviewerId: uuid('reviewer_id'),
    toId: uuid('to_id'),
    comment: text('comment'),
    outcome: text('outcome').$type<'approved' | 'rejected'>(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);
