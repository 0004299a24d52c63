import {
  SSO_ERROR_PARAM,
  SSO_REQUEST_TTL_SECONDS,
  errorResponse,
  okResponse,
  ssoConfigBody,
  ssoConfigResponse,
  ssoExchangeBody,
  ssoExchangeResponse,
  ssoStatusResponse,
} from '@bulwark/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicUrl } from '../../platform/config.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { principalOf, requireTenant } from '../../platform/http/access.js';
import { SsoFailure, type SsoService } from './service.js';

const tags = ['Single sign-on'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 429: errorResponse };
const redirect = { 302: z.null().describe('Redirect') };

/** The cookie that binds a started sign-in (and its exchange code) to the browser that started it. */
const COOKIE = 'bulwark_sso';
const COOKIE_PATH = '/api/sso';

function readCookie(req: FastifyRequest): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === COOKIE) return decodeURIComponent(rest.join('=')) || null;
  }
  return null;
}

function cookie(value: string, maxAge: number, secure: boolean): string {
  return `${COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function ssoRoutes(app: FastifyInstance, deps: AppDeps, service: SsoService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Over https as the request came (X-Forwarded-Proto counts with TRUST_PROXY=1), or as the public address says.
  const secure = (req: FastifyRequest) => req.protocol === 'https' || publicUrl(deps.config, 'x').startsWith('https:');

  /** Every failure of the browser-facing steps ends on the sign-in page with the reason (spec 000 §3 "SSO error"). */
  function toLogin(req: FastifyRequest, reply: FastifyReply, err: unknown) {
    const code =
      err instanceof SsoFailure ? err.code : err instanceof AppError && err.code === 'rate_limited' ? 'rate_limited' : 'provider_error';
    if (!(err instanceof SsoFailure) || err.code === 'provider_error') {
      req.log.warn({ err: err instanceof SsoFailure ? err.detail : err }, 'single sign-on failed');
    }
    return reply.header('cache-control', 'no-store').redirect(`/login?${SSO_ERROR_PARAM}=${code}`, 302);
  }

  async function tenantOf(req: FastifyRequest) {
    try {
      return await requireTenant(req, deps.db.app, deps.config.baseDomain);
    } catch {
      throw new SsoFailure('not_configured');
    }
  }

  r.get(
    '/api/sso/status',
    {
      config: { access: { public: true } },
      schema: { tags, summary: 'Whether this organisation offers single sign-on', response: { 200: ssoStatusResponse, ...errors } },
    },
    async (req) => ({ enabled: await service.isEnabled(await requireTenant(req, deps.db.app, deps.config.baseDomain)) }),
  );

  r.get(
    '/api/sso/authorize',
    {
      config: { access: { public: true } },
      schema: { tags, summary: 'Start a single sign-on: redirects to the organisation’s OpenID provider', response: redirect },
    },
    async (req, reply) => {
      try {
        const tenant = await tenantOf(req);
        const { location, browser } = await service.start(tenant, req.ip);
        return reply
          .header('set-cookie', cookie(browser, SSO_REQUEST_TTL_SECONDS, secure(req)))
          .header('cache-control', 'no-store')
          .redirect(location, 302);
      } catch (err) {
        return toLogin(req, reply, err);
      }
    },
  );

  r.get(
    '/api/sso/callback',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'The provider’s answer: redirects to /sso with a one-time code, or to /login with the reason',
        response: redirect,
      },
    },
    async (req, reply) => {
      try {
        const tenant = await tenantOf(req);
        const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
        const code = await service.callback(tenant, query, readCookie(req));
        return reply.header('cache-control', 'no-store').redirect(`/sso?code=${encodeURIComponent(code)}`, 302);
      } catch (err) {
        return toLogin(req, reply, err);
      }
    },
  );

  r.post(
    '/api/sso/exchange',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Trade the one-time code (60 s, single use, same browser) for the session',
        body: ssoExchangeBody,
        response: { 200: ssoExchangeResponse, ...errors },
      },
    },
    async (req, reply) => {
      const tenant = await requireTenant(req, deps.db.app, deps.config.baseDomain);
      const session = await service.exchange(tenant, req.body.code, readCookie(req), { ip: req.ip, userAgent: req.headers['user-agent'] });
      reply.header('set-cookie', cookie('', 0, secure(req)));
      return session;
    },
  );

  r.get(
    '/api/sso_configs',
    {
      config: { access: { admin: true } },
      schema: {
        tags,
        summary: 'The organisation’s single sign-on settings (the secret only as "set")',
        response: { 200: ssoConfigResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return service.getSettings(p.organizationId, { label: p.organization.subDomainName });
    },
  );

  r.put(
    '/api/sso_configs',
    {
      config: { access: { admin: true } },
      schema: {
        tags,
        summary: 'Save the settings after checking the provider’s discovery document',
        body: ssoConfigBody,
        response: { 200: ssoConfigResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return service.saveSettings(p.organizationId, p.userId, { label: p.organization.subDomainName }, req.body);
    },
  );

  r.delete(
    '/api/sso_configs',
    {
      config: { access: { admin: true } },
      schema: { tags, summary: 'Remove single sign-on from the organisation', response: { 200: okResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      await service.removeSettings(p.organizationId, p.userId);
      return { ok: true as const };
    },
  );
}
