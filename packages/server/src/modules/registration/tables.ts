import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0010_registration.sql. */
export const registrations = pgTable(
  'registrations',
  {
    organizationId: orgId(),
    id: id(),
    companyName: text('company_name').notNull(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    subDomain: text('sub_domain').notNull(),
    locale: text('locale').notNull().$type<'en' | 'es' | 'tr' | 'zh'>(),
    passwordHash: text('password_hash').notNull(),
    codeHash: text('code_hash').notNull(),
    codeExpiresAt: ts('code_expires_at').notNull(),
    codeSentAt: ts('code_sent_at').notNull().defaultNow(),
    failedAttempts: integer('failed_attempts').notNull().default(0),
    resendCount: integer('resend_count').notNull().default(0),
    completedAt: ts('completed_at'),
    createdOrganizationId: uuid('created_organization_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const extendRequests = pgTable(
  'org_free_trial_extend_requests',
  {
    organizationId: orgId(),
    id: id(),
    requestedBy: uuid('requested_by'),
    reason: text('reason').notNull(),
    status: text('status').notNull().default('pending').$type<'pending' | 'approved' | 'rejected'>(),
    daysGranted: integer('days_granted'),
    decisionReason: text('decision_reason'),
    decidedBy: uuid('decided_by'),
    decidedAt: ts('decided_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const trialNotices = pgTable(
  'trial_notices',
  {
    organizationId: orgId(),
    kind: text('kind').notNull().$type<'3d' | '1d' | 'expired'>(),
    trialEndsAt: ts('trial_ends_at').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.kind, t.trialEndsAt] })],
);
