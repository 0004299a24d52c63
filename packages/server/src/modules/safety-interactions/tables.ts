import type { SiBehaviourKind, SiStatus, SiTopic } from '@bulwark/domain';
import { boolean, date, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0120_safety_interactions.sql. */
export const siCounters = pgTable('si_counters', {
  organizationId: orgId().primaryKey(),
  lastSerial: integer('last_serial').notNull(),
});

export const siSchedules = pgTable(
  'si_schedules',
  {
    organizationId: orgId(),
    id: id(),
    observerId: uuid('observer_id').notNull(),
    siteId: uuid('site_id').notNull(),
    plannedDate: date('planned_date', { mode: 'string' }).notNull(),
    note: text('note'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const safetyInteractions = pgTable(
  'safety_interactions',
  {
    organizationId: orgId(),
    id: id(),
    serial: integer('serial').notNull(),
    status: text('status').notNull().$type<SiStatus>(),
    observerId: uuid('observer_id'),
    siteId: uuid('site_id').notNull(),
    areaId: uuid('area_id'),
    location: text('location'),
    heldAt: ts('held_at').notNull(),
    heldOn: date('held_on', { mode: 'string' }).notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    crew: text('crew'),
    topics: text('topics').array().notNull().$type<SiTopic[]>(),
    recognitionGiven: boolean('recognition_given').notNull(),
    comment: text('comment'),
    scheduleId: uuid('schedule_id'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    completedAt: ts('completed_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

/** What the list counts, kept by a trigger on safety_interactions (migrations/0212); topic '' is every interaction. */
export const safetyInteractionCounts = pgTable(
  'safety_interaction_counts',
  {
    organizationId: orgId(),
    siteId: uuid('site_id').notNull(),
    status: text('status').notNull().$type<SiStatus>(),
    topic: text('topic').notNull(),
    n: integer('n').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.siteId, t.status, t.topic] })],
);

export const siParticipants = pgTable(
  'si_participants',
  {
    organizationId: orgId(),
    interactionId: uuid('interaction_id').notNull(),
    position: smallint('position').notNull(),
    userId: uuid('user_id'),
    name: text('name').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.interactionId, t.position] })],
);

export const siBehaviours = pgTable(
  'si_behaviours',
  {
    organizationId: orgId(),
    interactionId: uuid('interaction_id').notNull(),
    kind: text('kind').notNull().$type<SiBehaviourKind>(),
    position: smallint('position').notNull(),
    topic: text('topic').notNull().$type<SiTopic>(),
    note: text('note').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.interactionId, t.kind, t.position] })],
);
