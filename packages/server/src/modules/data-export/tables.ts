import { bigint, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import type { DataExportStatus } from '@bulwark/domain';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed view of migrations/0202_data_exports.sql. */
export const dataExports = pgTable(
  'data_exports',
  {
    organizationId: orgId(),
    id: id(),
    requestedBy: uuid('requested_by'),
    status: text('status').notNull().default('queued').$type<DataExportStatus>(),
    progress: integer('progress').notNull().default(0),
    storageKey: text('storage_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    expiresAt: ts('expires_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);
