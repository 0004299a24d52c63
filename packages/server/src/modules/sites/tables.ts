import { boolean, doublePrecision, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import type { SiteLevel } from '@bulwark/domain';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0020_sites.sql. */
export const sites = pgTable(
  'sites',
  {
    organizationId: orgId(),
    id: id(),
    name: text('name').notNull(),
    shortName: text('short_name'),
    siteCode: text('site_code'),
    timeZone: text('time_zone').notNull(),
    headOfSafetyId: uuid('head_of_safety_id'),
    headOfSiteId: uuid('head_of_site_id'),
    emergencyPhone: text('emergency_phone').notNull(),
    emergencyEmail: text('emergency_email'),
    address: text('address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull(),
    zip: text('zip').notNull(),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    isActive: boolean('is_active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const siteNodes = pgTable(
  'site_nodes',
  {
    organizationId: orgId(),
    id: id(),
    siteId: uuid('site_id').notNull(),
    parentId: uuid('parent_id'),
    level: text('level').notNull().$type<SiteLevel>(),
    name: text('name').notNull(),
    headId: uuid('head_id'),
    supervisorId: uuid('supervisor_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const userSites = pgTable(
  'user_sites',
  {
    organizationId: orgId(),
    userId: uuid('user_id').notNull(),
    siteId: uuid('site_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId, t.siteId] })],
);

export const siteManpower = pgTable(
  'site_manpower',
  {
    organizationId: orgId(),
    siteId: uuid('site_id').notNull(),
    year: smallint('year').notNull(),
    month: smallint('month').notNull(),
    total: integer('total').notNull(),
    updatedBy: uuid('updated_by'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.siteId, t.year, t.month] })],
);
