import { SSO_ERROR_PARAM, SSO_REQUEST_TTL_SECONDS, ssoApi as api } from '@bulwark/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { publicUrl } from '../../platform/config.js';
import { AppError } from '../../platform/errors.js';
import { RedirectAnswer } from '../../platform/http/answers.js';
import type { Router } from '../../platform/http/route.js';
import type { Tenant } from '../../platform/http/tenancy.js';
import { createSsoService, SsoFailure } from './service.js';

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

export function ssoRoutes(r: Router) {
  const { deps } = r;
  const service = createSsoService(deps);
  // Over https as the request came (X-Forwarded-Proto counts with TRUST_PROXY=1), or as the public address says.
  const secure = (req: FastifyRequest) => req.protocol === 'https' || publicUrl(deps.config, 'x').startsWith('https:');

  /** Every failure of the browser-facing steps ends on the sign-in page with the reason (spec 000 §3 "SSO error"). */
  function toLogin(req: FastifyRequest, reply: FastifyReply, err: unknown) {
    const code =
      err instanceof SsoFailure ? err.code : err instanceof AppError && err.code === 'rate_limited' ? 'rate_limited' : 'provider_error';
    if (!(err instanceof SsoFailure) || err.code === 'provider_error') {
      req.log.warn({ err: err instanceof SsoFailure ? err.detail : err }, 'single sign-on failed');
    }
    reply.header('cache-control', 'no-store');
    return new RedirectAnswer(`/login?${SSO_ERROR_PARAM}=${code}`, 302);
  }

  /** The address's organisation; none is a failure the sign-in page names, not an error answer. */
  async function tenantOf(tenant: () => Promise<Tenant>) {
    try {
      return await tenant();
    } catch {
      throw new SsoFailure('not_configured');
    }
  }

  r.public(api.status, async ({ tenant }) => ({ enabled: await service.isEnabled(await tenant()) }));

  r.public(api.authorize, async ({ tenant, req, reply }) => {
    try {
      const { location, browser } = await service.start(await tenantOf(tenant), req.ip);
      reply.header('set-cookie', cookie(browser, SSO_REQUEST_TTL_SECONDS, secure(req))).header('cache-control', 'no-store');
      return new RedirectAnswer(location, 302);
    } catch (err) {
      return toLogin(req, reply, err);
    }
  });

  r.public(api.callback, async ({ tenant, req, reply }) => {
    try {
      const found = await tenantOf(tenant);
      // The provider's answer as it came (openid-client checks it whole, iss and all).
      const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      const code = await service.callback(found, query, readCookie(req));
      reply.header('cache-control', 'no-store');
      return new RedirectAnswer(`/sso?code=${encodeURIComponent(code)}`, 302);
    } catch (err) {
      return toLogin(req, reply, err);
    }
  });

  r.public(api.exchange, async ({ tenant, body, req, reply }) => {
    const session = await service.exchange(await tenant(), body.code, readCookie(req), {
      ip: req.ip,
      userAgent: req.headers['user-agent'],
    });
    reply.header('set-cookie', cookie('', 0, secure(req)));
    return session;
  });

  // --- Settings (organisation admin) ----------------------------------------------------------------

  r.route(api.settings, ({ tx, principal }) => service.getSettings(tx, { label: principal.organization.subDomainName }));

  r.route(api.saveSettings, ({ tx, principal, body }) =>
    service.saveSettings(tx, principal.userId, { label: principal.organization.subDomainName }, body),
  );

  r.route(api.removeSettings, async ({ tx, principal }) => {
    await service.removeSettings(tx, principal.userId);
    return { ok: true as const };
  });
}
