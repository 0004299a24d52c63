import { randomBytes } from 'node:crypto';
import {
  API_TOKEN_HINT_LENGTH,
  API_TOKEN_PREFIX,
  API_TOKENS_PER_ACCOUNT_MAX,
  type ApiToken,
  type ApiTokenCreateBody,
  type ServiceAccount,
  type ServiceAccountCreateBody,
  type ServiceAccountUpdateBody,
} from '@bulwark/domain';
import { aliasedTable, and, asc, count, desc, eq, gt, inArray, isNull, ne, or } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import { sha256 } from '../../platform/auth/tokens.js';
import type { Tx } from '../../platform/db/db.js';
import { apiTokens, roles, sessions, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';

/**
 * Service accounts (users of kind integration) and their API tokens. The account is a user with a role
 * like anyone, so every right, list filter and history entry applies to it unchanged; the database
 * refuses it a password or administration (migrations/0200_api_tokens.sql).
 */

const serviceAccounts = and(eq(users.isIntegration, true), ne(users.status, 'Deleted'))!;
const creator = aliasedTable(users, 'creator');

function tokenView(row: typeof apiTokens.$inferSelect, createdByName: string | null): ApiToken {
  return {
    id: row.id,
    name: row.name,
    hint: `${row.hint}…`,
    created_at: row.createdAt.toISOString(),
    created_by_name: createdByName,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    revoked_at: row.revokedAt?.toISOString() ?? null,
  };
}

export async function listServiceAccounts(tx: Tx, only?: string): Promise<ServiceAccount[]> {
  const accounts = await tx
    .select({
      id: users.id,
      name: users.fullName,
      roleId: users.roleId,
      roleName: roles.name,
      status: users.status,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(roles, and(eq(roles.organizationId, users.organizationId), eq(roles.id, users.roleId)))
    .where(only ? and(serviceAccounts, eq(users.id, only)) : serviceAccounts)
    .orderBy(asc(users.fullName), asc(users.id));
  if (accounts.length === 0) return [];
  const tokens = await tx
    .select({ token: apiTokens, createdByName: creator.fullName })
    .from(apiTokens)
    .leftJoin(creator, and(eq(creator.organizationId, apiTokens.organizationId), eq(creator.id, apiTokens.createdBy)))
    .where(
      inArray(
        apiTokens.userId,
        accounts.map((a) => a.id),
      ),
    )
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
  return accounts.map((a) => ({
    id: a.id,
    name: a.name,
    role_id: a.roleId,
    role_name: a.roleName,
    active: a.status === 'Active',
    created_at: a.createdAt.toISOString(),
    tokens: tokens.filter((t) => t.token.userId === a.id).map((t) => tokenView(t.token, t.createdByName)),
  }));
}

async function oneAccount(tx: Tx, id: string): Promise<ServiceAccount> {
  const [account] = await listServiceAccounts(tx, id);
  // Another organisation's account, a person, or nothing: all "not found".
  if (!account) throw new AppError('not_found');
  return account;
}

async function checkRole(tx: Tx, roleId: string): Promise<void> {
  const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId));
  if (!role) throw new AppError('validation_failed', { fields: { role_id: 'apiTokens.validation.roleNotFound' } });
}

export async function createServiceAccount(tx: Tx, p: Principal, body: ServiceAccountCreateBody): Promise<ServiceAccount> {
  await checkRole(tx, body.role_id);
  // An address nobody can receive mail at (RFC 2606 .invalid): the account is never reached by e-mail.
  const email = `service-${randomBytes(8).toString('hex')}@integrations.invalid`;
  const [row] = await tx
    .insert(users)
    .values({ email, fullName: body.name, passwordHash: null, roleId: body.role_id, isIntegration: true, locale: p.locale })
    .returning({ id: users.id });
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'service_account_created',
    entity: 'User',
    entityId: row!.id,
    changes: { name: body.name, role_id: body.role_id },
  });
  return oneAccount(tx, row!.id);
}

export async function updateServiceAccount(tx: Tx, p: Principal, id: string, body: ServiceAccountUpdateBody): Promise<ServiceAccount> {
  await oneAccount(tx, id);
  if (body.role_id) await checkRole(tx, body.role_id);
  await tx
    .update(users)
    .set({
      ...(body.name !== undefined ? { fullName: body.name } : {}),
      ...(body.role_id !== undefined ? { roleId: body.role_id } : {}),
      ...(body.active !== undefined ? { status: body.active ? ('Active' as const) : ('Inactive' as const) } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(users.id, id), serviceAccounts));
  await recordAudit(tx, { actorUserId: p.userId, action: 'service_account_updated', entity: 'User', entityId: id, changes: body });
  return oneAccount(tx, id);
}

/** A new token: returned once in clear, kept as its SHA-256 and a short hint. */
export async function createToken(tx: Tx, p: Principal, accountId: string, body: ApiTokenCreateBody) {
  await oneAccount(tx, accountId);
  const now = new Date();
  const [live] = await tx
    .select({ n: count() })
    .from(apiTokens)
    .where(
      and(eq(apiTokens.userId, accountId), isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now))),
    );
  if (Number(live?.n ?? 0) >= API_TOKENS_PER_ACCOUNT_MAX)
    throw new AppError('conflict', { messageKey: 'apiTokens.validation.tooManyTokens' });
  const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const [session] = await tx
    .insert(sessions)
    .values({ userId: accountId, userAgent: `api-token: ${body.name}` })
    .returning({ id: sessions.id });
  const [row] = await tx
    .insert(apiTokens)
    .values({
      userId: accountId,
      sessionId: session!.id,
      name: body.name,
      tokenHash: sha256(secret),
      hint: secret.slice(0, API_TOKEN_HINT_LENGTH),
      createdBy: p.userId,
      expiresAt: body.expires_in_days ? new Date(now.getTime() + body.expires_in_days * 86_400_000) : null,
    })
    .returning();
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'api_token_created',
    entity: 'User',
    entityId: accountId,
    changes: { token: row!.id, name: body.name, expires_at: row!.expiresAt?.toISOString() ?? null },
  });
  return { token: tokenView(row!, p.fullName), secret };
}

/** Revokes a token and its session: the next request made with it is refused. Revoking twice changes nothing. */
export async function revokeToken(tx: Tx, p: Principal, tokenId: string): Promise<void> {
  const [row] = await tx.select().from(apiTokens).where(eq(apiTokens.id, tokenId));
  if (!row) throw new AppError('not_found');
  if (row.revokedAt) return;
  const now = new Date();
  await tx.update(apiTokens).set({ revokedAt: now }).where(eq(apiTokens.id, tokenId));
  await tx.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, row.sessionId));
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'api_token_revoked',
    entity: 'User',
    entityId: row.userId,
    changes: { token: row.id },
  });
}
