import type { CategoryModule, CategoryType } from '@bulwark/domain';
import { boolean, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0050_categories.sql. */
export const categories = pgTable(
  'categories',
  {
    organizationId: orgId(),
    id: id(),
    module: text('module').notNull().$type<CategoryModule>(),
    type: text('type').notNull().$type<CategoryType>(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const subCategories = pgTable(
  'sub_categories',
  {
    organizationId: orgId(),
    id: id(),
    categoryId: uuid('category_id').notNull(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const rootCauseSettings = pgTable(
  'root_cause_settings',
  {
    organizationId: orgId(),
    id: id(),
    parentId: uuid('parent_id'),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);
