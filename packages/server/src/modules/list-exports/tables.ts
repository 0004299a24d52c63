import { bigint, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import type { Language, ListExportStatus } from '@bulwark/domain';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed view of migrations/0214_list_exports.sql. */
export const listExports = pgTable(
  'list_exports',
  {
    organizationId: orgId(),
    id: id(),
    requestedBy: uuid('requested_by'),
    list: text('list').notNull(),
    query: jsonb('query').notNull().$type<Record<string, unknown>>(),
    language: text('language').notNull().$type<Language>(),
    status: text('status').notNull().default('queued').$type<ListExportStatus>(),
    rowsTotal: integer('rows_total').notNull().default(0),
    rowsDone: integer('rows_done').notNull().default(0),
    fileName: text('file_name').notNull(),
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
