import { pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed view of migrations/0065_mailers.sql: an organisation's own texts of one scenario and language. */
export const mailTemplates = pgTable(
  'mail_templates',
  {
    organizationId: orgId(),
    id: id(),
    scenarioId: text('scenario_id').notNull(),
    language: text('language').notNull().$type<'en' | 'es' | 'tr' | 'zh'>(),
    subject: text('subject').notNull(),
    inApp: text('in_app').notNull(),
    body: text('body').notNull(),
    footer: text('footer').notNull().default(''),
    updatedBy: uuid('updated_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);
