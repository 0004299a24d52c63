import { boolean, integer, numeric, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0060_settings.sql. */
export const kpiSettings = pgTable(
  'kpi_settings',
  {
    organizationId: orgId(),
    id: id(),
    year: integer('year').notNull(),
    ltifrTarget: numeric('ltifr_target', { mode: 'number' }).notNull(),
    observationsPerEmployeeMonth: numeric('observations_per_employee_month', { mode: 'number' }).notNull(),
    criticalClosureRateTarget: numeric('critical_closure_rate_target', { mode: 'number' }).notNull(),
    seriousClosureRateTarget: numeric('serious_closure_rate_target', { mode: 'number' }).notNull(),
    trainingHoursPerEmployee: numeric('training_hours_per_employee', { mode: 'number' }).notNull(),
    updatedBy: uuid('updated_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const ehsOcps = pgTable(
  'ehs_ocps',
  {
    organizationId: orgId(),
    id: id(),
    code: text('code').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const ehsOcpSites = pgTable(
  'ehs_ocp_sites',
  {
    organizationId: orgId(),
    ocpId: uuid('ocp_id').notNull(),
    siteId: uuid('site_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.ocpId, t.siteId] })],
);

export const emailSubscriptions = pgTable(
  'email_subscriptions',
  {
    organizationId: orgId(),
    userId: uuid('user_id').notNull(),
    scenarioId: text('scenario_id').notNull(),
    emailEnabled: boolean('email_enabled').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId, t.scenarioId] })],
);
