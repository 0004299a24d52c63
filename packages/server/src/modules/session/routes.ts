import {
  REFRESH_HEADER,
  errorResponse,
  messageResponse,
  okResponse,
  passwordChangeBody,
  passwordResetBody,
  passwordResetRequestBody,
  signInBody,
  signInResponse,
  tokenPairResponse,
  translate,
} from '@bulwark/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf, requireTenant } from '../../platform/http/access.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { limitLinkTokens } from '../../platform/http/rate-limit.js';
import type { SessionService } from './service.js';

const tags = ['Session'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 410: errorResponse, 429: errorResponse };

function refreshHeader(req: FastifyRequest): string | null {
  const value = req.headers[REFRESH_HEADER];
  return (Array.isArray(value) ? value[0] : value)?.trim() || null;
}

/** Spec 000 §7 "Authentication and session". */
export function sessionRoutes(app: FastifyInstance, deps: AppDeps, service: SessionService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tenantOf = (req: FastifyRequest) => requireTenant(req, deps.db.app, deps.config.baseDomain);

  r.get(
    '/api/v1/authorize',
    {
      config: { access: { public: true } },
      schema: { tags, summary: 'Refused: credentials never travel in a URL', response: { 405: errorResponse } },
    },
    async (req, reply) =>
      reply
        .status(405)
        .header('allow', 'POST')
        .send({
          errors: [translate(req.lang, 'errors.getMethodSignIn')],
          code: 'method_not_allowed',
        }),
  );

  r.post(
    '/api/v1/authorize',
    {
      config: { access: { public: true } },
      schema: { tags, summary: 'Sign in with e-mail and password', body: signInBody, response: { 200: signInResponse, ...errors } },
    },
    async (req) => {
      const tenant = await tenantOf(req);
      return service.signIn(tenant, req.body.email, req.body.password, { ip: req.ip, userAgent: req.headers['user-agent'] });
    },
  );

  r.post(
    '/api/v1/refresh_token',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Rotate the refresh token (sent in the X-Refresh-Token header)',
        response: { 200: tokenPairResponse, ...errors },
      },
    },
    async (req) => {
      const token = refreshHeader(req);
      if (!token) throw new AppError('session_expired');
      return service.refresh(await tenantOf(req), token, req.ip);
    },
  );

  r.post(
    '/api/v1/reset_current_session',
    {
      config: { access: { public: true } },
      schema: { tags, summary: 'End the session that the refresh token belongs to, if any', response: { 200: okResponse, ...errors } },
    },
    async (req) => {
      const token = refreshHeader(req);
      if (token) await service.revokeByRefreshToken(await tenantOf(req), token, req.ip);
      return { ok: true as const };
    },
  );

  r.get(
    '/api/v2/api_connection_checks',
    {
      config: { access: { public: true } },
      schema: { tags, summary: 'The API and its database answer', response: { 200: okResponse, 503: errorResponse } },
    },
    async () => {
      try {
        await deps.db.appPool.query('select 1');
      } catch {
        throw new AppError('unavailable');
      }
      return { ok: true as const };
    },
  );

  r.get(
    '/api/auth',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Is this session valid?',
        response: { 200: z.object({ auth: z.literal(true), user_id: z.string(), organization_id: z.string() }), ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return { auth: true as const, user_id: p.userId, organization_id: p.organizationId };
    },
  );

  r.delete(
    '/api/v1/user_token',
    {
      config: { access: { session: true } },
      schema: { tags, summary: 'Sign out this session', response: { 200: okResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      await service.revokeSession(p.organizationId, p.sessionId);
      return { ok: true as const };
    },
  );

  r.delete(
    '/api/v2/user_logout',
    {
      config: { access: { session: true } },
      schema: { tags, summary: 'Sign out every session of this user', response: { 200: okResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      await service.revokeAllSessions(p.organizationId, p.userId);
      return { ok: true as const };
    },
  );

  r.patch(
    '/api/users/password',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Change the signed-in user’s own password; their other sessions end',
        body: passwordChangeBody,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      await service.changePassword(p.organizationId, p.userId, p.sessionId, req.body.current_password, req.body.password);
      return { message: translate(req.lang, 'sso.account.passwordChanged') };
    },
  );

  r.post(
    '/api/v1/password_resets',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'E-mail a password reset link',
        body: passwordResetRequestBody,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (req) => {
      await service.requestPasswordReset(await tenantOf(req), req.body.email, req.lang, req.ip);
      return { message: translate(req.lang, 'auth.resetSent') };
    },
  );

  r.post(
    '/api/v1/password_resets/:token',
    {
      config: { access: { public: true } },
      // Counted before anything is read, so malformed guesses count too.
      onRequest: (req) => limitLinkTokens(deps.db.app, req.ip),
      schema: {
        tags,
        summary: 'Set a new password with an e-mailed link',
        params: z.object({ token: z.string().min(10).max(200) }),
        body: passwordResetBody,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (req) => {
      await service.resetPassword(await tenantOf(req), req.params.token, req.body.password);
      return { message: translate(req.lang, 'auth.passwordChanged') };
    },
  );
}
