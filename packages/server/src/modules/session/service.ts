import {
  PASSWORD_RESET_TTL_SECONDS,
  PRODUCT_NAME,
  REFRESH_TOKEN_TTL_SECONDS,
  ACCESS_TOKEN_TTL_SECONDS,
  translate,
  type Language,
  type SignInResponse,
  type TokenPairResponse,
} from '@bulwark/domain';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { loadPrincipal, sessionOutlived, SESSION_MAX_AGE_SECONDS, type Principal } from '../../platform/auth/principal.js';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import { randomToken, sha256 } from '../../platform/auth/tokens.js';
import { recordAudit } from '../../platform/audit.js';
import { publicUrl } from '../../platform/config.js';
import { inTenant, type Tx } from '../../platform/db/db.js';
import { organizations, passwordResetTokens, refreshTokens, sessions, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { clear, hit, limit, refuseAfterFailures } from '../../platform/http/rate-limit.js';
import type { Tenant } from '../../platform/http/tenancy.js';
import { buildProfile } from '../users/profile.js';
import { createPasswordSignIn, type SessionMeta } from './sign-in.js';

export type { SessionMeta } from './sign-in.js';

// Wrong current passwords when a signed-in user changes theirs (their own session: no one else's lock).
const PASSWORD_CHANGE_LIMIT = { max: 10, windowSeconds: 900 };
// Wrong refresh tokens per address. Only misses count: every client refreshes every few minutes.
const REFRESH_MISSES = { max: 30, windowSeconds: 300 };
// Reset links mailed per address and per account: an address may not flood anyone's mailbox.
const RESET_PER_ADDRESS = { max: 10, windowSeconds: 900 };
const RESET_PER_ACCOUNT = { max: 3, windowSeconds: 900 };

export function createSessionService(deps: Pick<AppDeps, 'db' | 'tokens' | 'config' | 'mail' | 'jobs' | 'push'>) {
  const app = deps.db.app;

  /** A new access token and CSRF token for a session, plus a fresh refresh token of its family. */
  async function issueTokens(
    tx: Tx,
    organizationId: string,
    userId: string,
    sessionId: string,
    sessionStart: Date,
  ): Promise<TokenPairResponse> {
    const refresh = randomToken();
    const csrf = randomToken(24);
    // Rotation renews the refresh token, never the session: it ends SESSION_MAX_AGE_SECONDS after sign-in.
    const end = Math.min(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000, sessionStart.getTime() + SESSION_MAX_AGE_SECONDS * 1000);
    await tx.insert(refreshTokens).values({ tokenHash: sha256(refresh), sessionId, expiresAt: new Date(end) });
    const token = await deps.tokens.sign({ sub: userId, org: organizationId, sid: sessionId, csh: sha256(csrf) });
    return { token, csrf, refresh, expires_in: ACCESS_TOKEN_TTL_SECONDS };
  }

  /**
   * The one way a session starts, whatever proved who the user is (password, single sign-on): the
   * session row, its token pair, the audit entry and the profile, in the caller's tenant transaction.
   * The caller has checked that the user and the organisation are active.
   */
  async function openSession(
    tx: Tx,
    tenant: Tenant,
    userId: string,
    meta: SessionMeta,
    method: 'password' | 'sso',
  ): Promise<SignInResponse> {
    const [session] = await tx
      .insert(sessions)
      .values({ userId, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 500) ?? null })
      .returning({ id: sessions.id, createdAt: sessions.createdAt });
    const pair = await issueTokens(tx, tenant.id, userId, session!.id, session!.createdAt);
    const principal = await loadPrincipal(tx, userId, session!.id);
    await recordAudit(tx, {
      actorUserId: userId,
      action: 'sign_in',
      entity: 'Session',
      entityId: session!.id,
      ...(method === 'sso' ? { changes: { method } } : {}),
    });
    return {
      ...pair,
      auth: true as const,
      domain: tenant.label,
      profile: await buildProfile(tx, principal!, deps.config.hiraV2UserIds),
    };
  }

  /**
   * Rotates the refresh token. A token that was already spent means it was stolen or replayed: the whole
   * session family is revoked, and whoever holds the newer token is signed out too.
   */
  async function refresh(tenant: Tenant, token: string, ip: string): Promise<TokenPairResponse> {
    const missKey = `refresh-miss-ip:${ip}`;
    await refuseAfterFailures(app, missKey, REFRESH_MISSES.max, REFRESH_MISSES.windowSeconds);
    const outcome = await inTenant(app, tenant.id, async (tx) => {
      const [row] = await tx
        .select({ rt: refreshTokens, session: sessions })
        .from(refreshTokens)
        .innerJoin(sessions, and(eq(sessions.organizationId, refreshTokens.organizationId), eq(sessions.id, refreshTokens.sessionId)))
        .where(eq(refreshTokens.tokenHash, sha256(token)))
        .for('update', { of: refreshTokens });
      if (!row) return { error: true as const };
      if (row.rt.usedAt) {
        await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, row.session.id));
        await recordAudit(tx, {
          actorUserId: row.session.userId,
          action: 'refresh_reuse_revoked',
          entity: 'Session',
          entityId: row.session.id,
        });
        return { error: true as const, revoked: row.session.id };
      }
      if (row.session.revokedAt || row.rt.expiresAt < new Date() || sessionOutlived(row.session.createdAt)) return { error: true as const };
      const principal = await loadPrincipal(tx, row.session.userId, row.session.id);
      if (!principal || principal.status !== 'Active') return { error: true as const };
      await tx.update(refreshTokens).set({ usedAt: new Date() }).where(eq(refreshTokens.tokenHash, row.rt.tokenHash));
      await tx.update(sessions).set({ lastUsedAt: new Date() }).where(eq(sessions.id, row.session.id));
      return { pair: await issueTokens(tx, tenant.id, row.session.userId, row.session.id, row.session.createdAt) };
    });
    if ('error' in outcome) {
      if (outcome.revoked) deps.push.disconnectSession(outcome.revoked);
      await hit(app, missKey, REFRESH_MISSES.windowSeconds);
      throw new AppError('session_expired');
    }
    return outcome.pair;
  }

  /** Sign-out by refresh token; a token that matches nothing counts against the refresh budget. */
  async function revokeByRefreshToken(tenant: Tenant, token: string, ip: string): Promise<void> {
    const missKey = `refresh-miss-ip:${ip}`;
    await refuseAfterFailures(app, missKey, REFRESH_MISSES.max, REFRESH_MISSES.windowSeconds);
    const found = await inTenant(app, tenant.id, async (tx) => {
      const [row] = await tx
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, sha256(token)));
      if (row)
        await tx
          .update(sessions)
          .set({ revokedAt: new Date() })
          .where(and(eq(sessions.id, row.sessionId), isNull(sessions.revokedAt)));
      return row?.sessionId ?? null;
    });
    if (found) deps.push.disconnectSession(found);
    else await hit(app, missKey, REFRESH_MISSES.windowSeconds);
  }

  /** Ends one session, in the request's transaction; returns what closes its sockets once that commits. */
  async function revokeSession(tx: Tx, sessionId: string): Promise<() => void> {
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
    return () => deps.push.disconnectSession(sessionId);
  }

  /** Ends every session of a user, in the request's transaction; returns what closes their sockets once that commits. */
  async function revokeAllSessions(tx: Tx, userId: string): Promise<() => void> {
    await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
    return () => deps.push.disconnectUser(userId);
  }

  /**
   * Mails a reset link to an active account. The caller answers the same whether or not one went out
   * (DECISIONS.md): an unknown, inactive or too often asked address changes nothing else.
   */
  async function requestPasswordReset(tenant: Tenant, email: string, lang: Language, ip: string): Promise<void> {
    await limit(app, `reset-ip:${ip}`, RESET_PER_ADDRESS.max, RESET_PER_ADDRESS.windowSeconds);
    const queued = await inTenant(app, tenant.id, async (tx) => {
      const [user] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`);
      // A service account has no password to reset (modules/api-tokens).
      if (!user || user.status !== 'Active' || user.isIntegration) return null;
      const mailed = await hit(app, `reset-account:${tenant.id}:${user.id}`, RESET_PER_ACCOUNT.windowSeconds);
      if (mailed > RESET_PER_ACCOUNT.max) return null;
      const [org] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, tenant.id));
      const token = randomToken();
      await tx.insert(passwordResetTokens).values({
        tokenHash: sha256(token),
        userId: user.id,
        expiresAt: new Date(Date.now() + PASSWORD_RESET_TTL_SECONDS * 1000),
      });
      const userLang = (user.locale as Language) ?? lang;
      const link = `${publicUrl(deps.config, tenant.label)}/password-reset/${token}`;
      const vars = { product: PRODUCT_NAME, organization: org?.name ?? tenant.label, link };
      const id = await deps.mail.enqueue(tx, {
        to: user.email,
        subject: translate(userLang, 'mail.passwordResetSubject', vars),
        body: translate(userLang, 'mail.passwordResetBody', vars),
      });
      await recordAudit(tx, { actorUserId: user.id, action: 'password_reset_requested', entity: 'User', entityId: user.id });
      return id;
    });
    if (queued && deps.mail.smtpEnabled) await deps.jobs?.send('mail-deliver', { organizationId: tenant.id, id: queued });
  }

  async function resetPassword(tenant: Tenant, token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const userId = await inTenant(app, tenant.id, async (tx) => {
      const [row] = await tx
        .select()
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.tokenHash, sha256(token)),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, new Date()),
          ),
        )
        .for('update');
      if (!row) throw new AppError('link_expired');
      await tx.update(passwordResetTokens).set({ usedAt: new Date() }).where(eq(passwordResetTokens.tokenHash, row.tokenHash));
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, row.userId));
      // A new password ends every session that the old one opened.
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, row.userId), isNull(sessions.revokedAt)));
      await recordAudit(tx, { actorUserId: row.userId, action: 'password_reset', entity: 'User', entityId: row.userId });
      return row.userId;
    });
    deps.push.disconnectUser(userId);
  }

  /**
   * The signed-in user changes their own password. The current one must be right (a stolen session
   * alone cannot take the account over); every other session of the user ends, this one stays.
   * Returns what closes the ended sessions' sockets once the transaction commits.
   */
  async function changePassword(
    tx: Tx,
    p: Pick<Principal, 'organizationId' | 'userId' | 'sessionId'>,
    current: string,
    password: string,
  ): Promise<() => void> {
    const { userId } = p;
    // The attempts are counted outside the request's transaction: a refusal must not undo its count.
    const attemptsKey = `password-change:${p.organizationId}:${userId}`;
    await limit(app, attemptsKey, PASSWORD_CHANGE_LIMIT.max, PASSWORD_CHANGE_LIMIT.windowSeconds);
    const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
    if (!user || !(await verifyPassword(user.passwordHash ?? null, current))) {
      throw new AppError('incorrect_password', { fields: { current_password: 'errors.incorrect_password' } });
    }
    await clear(app, attemptsKey);
    const passwordHash = await hashPassword(password);
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    const ended = await tx
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, p.sessionId)))
      .returning({ id: sessions.id });
    await recordAudit(tx, { actorUserId: userId, action: 'password_changed', entity: 'User', entityId: userId });
    return () => ended.forEach((s) => deps.push.disconnectSession(s.id));
  }

  const { signIn } = createPasswordSignIn(deps, (tenant, userId, meta) =>
    inTenant(app, tenant.id, (tx) => openSession(tx, tenant, userId, meta, 'password')),
  );

  return {
    signIn,
    openSession,
    changePassword,
    refresh,
    revokeByRefreshToken,
    revokeSession,
    revokeAllSessions,
    requestPasswordReset,
    resetPassword,
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
