import { sql } from 'drizzle-orm';
import { bigint, boolean, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Typed views of the tables that `migrations/*.sql` create (the SQL is the source of truth; a test checks
 * that every column named here exists in a migrated database). Ids and organization_id have database
 * defaults, so an insert can never forget the organisation.
 */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const orgId = () =>
  uuid('organization_id')
    .notNull()
    .default(sql`app_current_org()`);
export const id = () =>
  uuid('id')
    .notNull()
    .default(sql`uuid_generate_v7()`);

export const organizations = pgTable('organizations', {
  id: uuid('id')
    .primaryKey()
    .default(sql`uuid_generate_v7()`),
  name: text('name').notNull(),
  subDomainName: text('sub_domain_name').notNull(),
  organizationStatus: text('organization_status').notNull().$type<'Active' | 'Inactive'>(),
  isPlatform: boolean('is_platform').notNull(),
  isEnterprise: boolean('is_enterprise').notNull(),
  subscriptionType: text('subscription_type').notNull().$type<'free_trial' | 'active' | 'cancelled'>(),
  trialEndsAt: ts('trial_ends_at'),
  onboardingCompletedAt: ts('onboarding_completed_at'),
  onboardingState: jsonb('onboarding_state').notNull().default({}).$type<Record<string, boolean>>(),
  timezone: text('timezone').notNull(),
  storageQuotaBytes: bigint('storage_quota_bytes', { mode: 'number' }).notNull(),
  storageUsedBytes: bigint('storage_used_bytes', { mode: 'number' }).notNull(),
  /** Guests' uploads no report links yet: held apart from the quota (platform/storage/storage.ts). */
  storagePendingBytes: bigint('storage_pending_bytes', { mode: 'number' }).notNull().default(0),
  userLimit: integer('user_limit').notNull().default(50),
  guestSignupEnabled: boolean('guest_signup_enabled').notNull().default(false),
  /** Closing an action needs someone other than the person who completed it (0170; mayCloseAction). */
  actionCloseByOther: boolean('action_close_by_other').notNull().default(true),
  deletedAt: ts('deleted_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const roles = pgTable(
  'roles',
  {
    organizationId: orgId(),
    id: id(),
    name: text('name').notNull(),
    isSystem: boolean('is_system').notNull().default(false),
    isPowerUser: boolean('is_power_user').notNull().default(false),
    grantsAdmin: boolean('grants_admin').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const roleActions = pgTable(
  'role_actions',
  {
    organizationId: orgId(),
    roleId: uuid('role_id').notNull(),
    name: text('name').notNull(),
    rAdd: boolean('r_add').notNull().default(false),
    rEdit: boolean('r_edit').notNull().default(false),
    rView: boolean('r_view').notNull().default(false),
    rDestroy: boolean('r_destroy').notNull().default(false),
    isRevoke: boolean('is_revoke').notNull().default(false),
    isExtend: boolean('is_extend').notNull().default(false),
    isClose: boolean('is_close').notNull().default(false),
    isReject: boolean('is_reject').notNull().default(false),
    isApprove: boolean('is_approve').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.roleId, t.name] })],
);

export const users = pgTable(
  'users',
  {
    organizationId: orgId(),
    id: id(),
    email: text('email').notNull(),
    fullName: text('full_name').notNull(),
    passwordHash: text('password_hash'),
    status: text('status').notNull().default('Active').$type<'Active' | 'Inactive' | 'Error' | 'Deleted'>(),
    isAdmin: boolean('is_admin').notNull().default(false),
    isPlatformAdmin: boolean('is_platform_admin').notNull().default(false),
    canIssuePermit: boolean('can_issue_permit').notNull().default(false),
    roleId: uuid('role_id'),
    locale: text('locale').notNull().default('en').$type<'en' | 'es' | 'tr' | 'zh'>(),
    isGuest: boolean('is_guest').notNull().default(false),
    /** A service account (modules/api-tokens): no password, never an administrator, reached by API tokens. */
    isIntegration: boolean('is_integration').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const sessions = pgTable(
  'sessions',
  {
    organizationId: orgId(),
    id: id(),
    userId: uuid('user_id').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    organizationId: orgId(),
    tokenHash: text('token_hash').notNull(),
    sessionId: uuid('session_id').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.tokenHash] })],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    organizationId: orgId(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.tokenHash] })],
);

export const notifications = pgTable(
  'notifications',
  {
    organizationId: orgId(),
    id: id(),
    userId: uuid('user_id').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    link: text('link'),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    organizationId: orgId(),
    id: id(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('pending').$type<'pending' | 'sent' | 'failed' | 'kept'>(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    /** Stored files sent along (migrations/0161_mail_attachments.sql). */
    attachmentFileIds: uuid('attachment_file_ids').array().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const auditLog = pgTable(
  'audit_log',
  {
    organizationId: orgId(),
    id: id(),
    actorUserId: uuid('actor_user_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    changes: jsonb('changes').notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: ts('window_start').notNull(),
  count: integer('count').notNull(),
});

export const files = pgTable(
  'files',
  {
    organizationId: orgId(),
    id: id(),
    purpose: text('purpose').notNull(),
    fileName: text('file_name').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    storageKey: text('storage_key').notNull(),
    uploadedBy: uuid('uploaded_by'),
    /** A guest's upload no report links yet: its bytes are in storage_pending_bytes, not the quota. */
    pending: boolean('pending').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

/**
 * API tokens of service accounts (migrations/0200_api_tokens.sql; modules/api-tokens manages them):
 * platform auth reads them on every request that carries one. Only the token's SHA-256 is kept.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    organizationId: orgId(),
    id: id(),
    userId: uuid('user_id').notNull(),
    sessionId: uuid('session_id').notNull(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    hint: text('hint').notNull(),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at'),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);
