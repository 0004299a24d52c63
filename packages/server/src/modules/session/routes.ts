import { REFRESH_HEADER, sessionApi as api, translate } from '@bulwark/domain';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { limitLinkTokens } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { createSessionService, type SessionService } from './service.js';

function refreshHeader(req: FastifyRequest): string | null {
  const value = req.headers[REFRESH_HEADER];
  return (Array.isArray(value) ? value[0] : value)?.trim() || null;
}

/**
 * Spec 000 §7 "Authentication and session". The signed-out routes are public: each resolves the
 * organisation of the address itself, and the service keeps its own transactions there, because a
 * refusal must not undo what it records (a replayed refresh token revokes its session family).
 */
export function sessionRoutes(r: Router, deps: AppDeps, service: SessionService = createSessionService(deps)) {
  r.public(api.signInByUrl, ({ reply }) => {
    reply.header('allow', 'POST');
    throw new AppError('method_not_allowed', { messageKey: 'errors.getMethodSignIn' });
  });

  r.public(api.signIn, async ({ tenant, body, req }) =>
    service.signIn(await tenant(), body.email, body.password, { ip: req.ip, userAgent: req.headers['user-agent'] }),
  );

  r.public(api.refresh, async ({ tenant, req }) => {
    const token = refreshHeader(req);
    if (!token) throw new AppError('session_expired');
    return service.refresh(await tenant(), token, req.ip);
  });

  r.public(api.resetCurrentSession, async ({ tenant, req }) => {
    const token = refreshHeader(req);
    if (token) await service.revokeByRefreshToken(await tenant(), token, req.ip);
    return { ok: true as const };
  });

  r.public(api.connectionCheck, async () => {
    try {
      await deps.db.appPool.query('select 1');
    } catch {
      throw new AppError('unavailable');
    }
    return { ok: true as const };
  });

  // The hot path of every client: with the principal cached, it sends no statement at all.
  r.route(api.check, ({ principal: p }) => ({ auth: true as const, user_id: p.userId, organization_id: p.organizationId }), {
    database: false,
  });

  // A revoked session's sockets close after the commit (push.ts), on every node.
  r.route(api.signOut, async ({ tx, principal: p, afterCommit }) => {
    afterCommit(await service.revokeSession(tx, p.sessionId));
    return { ok: true as const };
  });

  r.route(api.signOutEverywhere, async ({ tx, principal: p, afterCommit }) => {
    afterCommit(await service.revokeAllSessions(tx, p.userId));
    return { ok: true as const };
  });

  r.route(api.changePassword, async ({ tx, principal: p, body, lang, afterCommit }) => {
    afterCommit(await service.changePassword(tx, p, body.current_password, body.password));
    return { message: translate(lang, 'sso.account.passwordChanged') };
  });

  r.public(api.requestPasswordReset, async ({ tenant, body, lang, req }) => {
    await service.requestPasswordReset(await tenant(), body.email, lang, req.ip);
    return { message: translate(lang, 'auth.resetSent') };
  });

  r.public(
    api.resetPassword,
    async ({ tenant, params, body, lang }) => {
      await service.resetPassword(await tenant(), params.token, body.password);
      return { message: translate(lang, 'auth.passwordChanged') };
    },
    // Counted before anything is read, so malformed guesses count too.
    { onRequest: (req) => limitLinkTokens(deps.db.app, req.ip) },
  );
}
