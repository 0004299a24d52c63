import { boolean, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';
import type { LicenceModule, UserGender, UserShift } from '@bulwark/domain';

/**
 * This module's columns of the platform `users` table (added by migrations/0030_users.sql). They sit on
 * the same row as email, status and role, so a user can never lack them; the platform schema keeps only
 * what sign-in and rights need, and this view holds the rest.
 */
export const userDetails = pgTable(
  'users',
  {
    organizationId: orgId(),
    id: id(),
    employeeId: text('employee_id'),
    phone: text('phone'),
    gender: text('gender').$type<UserGender>(),
    shift: text('shift').$type<UserShift>(),
    photoFileId: uuid('photo_file_id'),
    siTrained: boolean('si_trained').notNull().default(false),
    verifiedAt: ts('verified_at'),
    invitedAt: ts('invited_at'),
    invitedBy: uuid('invited_by'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

/** One licence: this user may work in this module. The plan's user_limit is each module's seat count. */
export const userLicences = pgTable(
  'user_licences',
  {
    organizationId: orgId(),
    userId: uuid('user_id').notNull(),
    module: text('module').notNull().$type<LicenceModule>(),
    assignedBy: uuid('assigned_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId, t.module] })],
);
