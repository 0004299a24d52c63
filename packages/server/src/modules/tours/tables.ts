import type { TourKey } from '@bulwark/domain';
import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { orgId, ts } from '../../platform/db/schema.js';

/** Typed view of migrations/0145_tours.sql. */
export const tourCompletions = pgTable(
  'tour_completions',
  {
    organizationId: orgId(),
    userId: uuid('user_id').notNull(),
    tourKey: text('tour_key').notNull().$type<TourKey>(),
    completedAt: ts('completed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId, t.tourKey] })],
);
