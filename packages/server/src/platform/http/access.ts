import { CSRF_HEADER, can, type Action, type Language, type Subject } from '@bulwark/domain';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { loadPrincipal, unusableReason, type Principal } from '../auth/principal.js';
import { sameHash, sha256, type TokenSigner } from '../auth/tokens.js';
import { inTenant, type Db } from '../db/db.js';
import { AppError } from '../errors.js';
import { resolveTenant, tenantLabel, type Tenant } from './tenancy.js';

/**
 * What a route needs, declared in its definition (`config: { access }`). A route under /api without it
 * cannot be registered: deny by default.
 * - public: anyone; the handler asks for the tenant itself when it needs one.
 * - session: any signed-in user of the request's organisation.
 * - platform: the platform super admin only.
 * - admin: the organisation admin (is_admin) only: mailers, manpower, KPI settings, EHS OCP, reports.
 * - subject/action: the `can()` right of packages/domain.
 */
export type Access = { public: true } | { session: true } | { platform: true } | { admin: true } | { subject: Subject; action: Action };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** Registration module: a write that stays open after the free trial ends (asking for an extension). */
    allowedAfterTrial?: boolean;
  }
  interface FastifyRequest {
    lang: Language;
    tenant: Tenant | null;
    principal: Principal | null;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Paths that belong to the API and therefore must declare their access. */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url === '/api';
}

/** A registered API route: what the probes of test/ enumerate, so a new module is covered without being named. */
export type RouteRecord = { method: string; url: string; access: Access; schema?: FastifySchema; allowedAfterTrial?: boolean };

export function registerAccessGuard(app: FastifyInstance, deps: { db: Db; tokens: TokenSigner; baseDomain: string }) {
  const registered: RouteRecord[] = [];
  app.decorate('registeredRoutes', registered);
  app.decorateRequest('tenant', null);
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    // The API documentation's own routes are public by nature.
    if (route.url.startsWith('/api/docs')) {
      route.config = { ...route.config, access: { public: true } };
    }
    const access = route.config?.access;
    if (!access) {
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access; every API route must (deny by default).`);
    }
    for (const method of [route.method].flat()) {
      registered.push({ method, url: route.url, access, schema: route.schema, allowedAfterTrial: route.config?.allowedAfterTrial });
    }
  });

  // Before validation: a caller without the right hears "forbidden" (or "sign in") before any field
  // error, on every route, whether or not the route validates with attachValidation.
  app.addHook('preValidation', async (req) => {
    const access = req.routeOptions.config?.access;
    if (!access) {
      // Only the not-found handler and static files get here; a matched API route always declares access.
      const matched = req.routeOptions.url;
      if (matched && isApiPath(matched)) throw new AppError('forbidden');
      return;
    }
    if ('public' in access) return;
    const tenant = await requireTenant(req, deps.db, deps.baseDomain);
    const principal = await authenticate(req, tenant, deps);
    if ('platform' in access && !principal.isPlatformAdmin) throw new AppError('forbidden');
    if ('admin' in access && !principal.isAdmin) throw new AppError('forbidden');
    // Without the right at all the answer is "forbidden"; an expired trial is said as such just below.
    if ('subject' in access && !can({ ...principal.access, trialExpired: false }, access.subject, access.action))
      throw new AppError('forbidden');
    // Registration module, trial expiry (spec 001 §4/§8): once a free trial has ended, every create,
    // update and workflow step is refused; reads, deletes, sign-in/out and personal settings go on.
    if (principal.trialExpired && !req.routeOptions.config?.allowedAfterTrial && refusedAfterTrial(access, req.method)) {
      throw new AppError('free_trial_expired');
    }
  });
}

/** Registration module: module writes (a right other than read or delete, or an admin-only write). */
function refusedAfterTrial(access: Access, method: string): boolean {
  if ('subject' in access) return access.action !== 'read' && access.action !== 'delete';
  if ('admin' in access) return UNSAFE.has(method) && method !== 'DELETE';
  return false;
}

/** The organisation this request is for; unknown or removed organisations are "not found". */
export async function requireTenant(req: FastifyRequest, db: Db, baseDomain: string): Promise<Tenant> {
  if (req.tenant) return req.tenant;
  const tenant = await resolveTenant(db, tenantLabel(req, baseDomain));
  if (!tenant || tenant.removed) throw new AppError('tenant_not_found');
  req.tenant = tenant;
  return tenant;
}

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice(7).trim() || null;
}

async function authenticate(req: FastifyRequest, tenant: Tenant, deps: { db: Db; tokens: TokenSigner }): Promise<Principal> {
  const token = bearerToken(req);
  if (!token) throw new AppError('unauthorized');
  const claims = await deps.tokens.verify(token);
  if (!claims) throw new AppError('session_expired');
  // A token issued for one organisation is worthless at another's address.
  if (claims.org !== tenant.id) throw new AppError('tenant_mismatch');
  if (UNSAFE.has(req.method)) {
    const csrf = req.headers[CSRF_HEADER];
    const value = Array.isArray(csrf) ? csrf[0] : csrf;
    if (!value || !sameHash(sha256(value), claims.csh)) throw new AppError('csrf_invalid');
  }
  const principal = await inTenant(deps.db, tenant.id, (tx) => loadPrincipal(tx, claims.sub, claims.sid));
  const refusal = unusableReason(principal);
  if (refusal) throw new AppError(refusal);
  req.principal = principal;
  return principal!;
}

/** The principal of a route that declared a non-public access (the guard has set it). */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('unauthorized');
  return req.principal;
}
