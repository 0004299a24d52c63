import { boolean, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0070_sso.sql. */
export const ssoConfigs = pgTable(
  'sso_configs',
  {
    organizationId: orgId(),
    id: id(),
    issuerUrl: text('issuer_url').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretEnc: text('client_secret_enc').notNull(),
    allowedDomains: text('allowed_domains').array().notNull().default([]),
    enabled: boolean('enabled').notNull().default(false),
    createUsers: boolean('create_users').notNull().default(false),
    defaultRoleId: uuid('default_role_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] }), unique().on(t.organizationId)],
);

export const ssoRequests = pgTable(
  'sso_requests',
  {
    organizationId: orgId(),
    stateHash: text('state_hash').notNull(),
    browserHash: text('browser_hash').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.stateHash] })],
);

export const ssoExchangeCodes = pgTable(
  'sso_exchange_codes',
  {
    organizationId: orgId(),
    codeHash: text('code_hash').notNull(),
    userId: uuid('user_id').notNull(),
    browserHash: text('browser_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.codeHash] })],
);
