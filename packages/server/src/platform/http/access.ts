import { CSRF_HEADER, can, type Access, type Endpoint, type Language } from '@bulwark/domain';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { loadPrincipal, unusableReason, type Principal } from '../auth/principal.js';
import { sameHash, sha256, type AccessClaims, type TokenSigner } from '../auth/tokens.js';
import type { Db, Tx } from '../db/db.js';
import { AppError } from '../errors.js';
import { resolveTenant, tenantLabel, type Tenant } from './tenancy.js';

export type { Access };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint contract the route was mounted from (platform/http/route.ts). */
    contract?: Endpoint;
  }
  interface FastifyRequest {
    lang: Language;
    tenant: Tenant | null;
    principal: Principal | null;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Paths that belong to the API and therefore must be mounted from a contract. */
export function isApiPath(url: string): boolean {
  return url.startsWith('/api/') || url === '/api';
}

/** A registered API route: what the probes of test/ enumerate, so a new module is covered without being named. */
export type RouteRecord = {
  method: string;
  url: string;
  access: Access;
  schema?: FastifySchema;
  allowedAfterTrial?: true;
  /** The contract's id (`observations.list`); absent only for the API documentation's own routes. */
  contractId?: string;
};

/**
 * Deny by default: an API route that was not mounted from a contract (which names its access) cannot
 * be registered. Every registered route is recorded for the suites that walk them all.
 */
export function registerRouteRecords(app: FastifyInstance) {
  const registered: RouteRecord[] = [];
  app.decorate('registeredRoutes', registered);
  app.decorateRequest('tenant', null);
  app.decorateRequest('principal', null);

  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    const contract = route.config?.contract;
    // The API documentation's own routes are public by nature.
    const docs = route.url.startsWith('/api/docs');
    if (!contract && !docs) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} has no endpoint contract and so declares no access; every API route is mounted from one (deny by default).`,
      );
    }
    for (const method of [route.method].flat()) {
      registered.push({
        method,
        url: route.url,
        access: contract?.access ?? { public: true },
        schema: route.schema,
        allowedAfterTrial: contract?.allowedAfterTrial,
        contractId: contract?.id,
      });
    }
  });
}

/** The organisation this request is for; unknown or removed organisations are "not found". */
export async function requireTenant(req: FastifyRequest, db: Db | Tx, baseDomain: string): Promise<Tenant> {
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

type AuthDeps = { db: Db; tokens: TokenSigner; baseDomain: string };

/**
 * The token's claims, checked without touching the database: signature, expiry, and the CSRF token on
 * unsafe methods. Any refusal first says "no such organisation" when the address names none, as the
 * tenant is the first thing a request is judged on.
 */
export async function verifyRequest(req: FastifyRequest, deps: AuthDeps): Promise<AccessClaims> {
  const token = bearerToken(req);
  const refuse = async (code: 'unauthorized' | 'session_expired' | 'csrf_invalid'): Promise<never> => {
    await requireTenant(req, deps.db, deps.baseDomain);
    throw new AppError(code);
  };
  if (!token) return refuse('unauthorized');
  const claims = await deps.tokens.verify(token);
  if (!claims) return refuse('session_expired');
  if (UNSAFE.has(req.method)) {
    const csrf = req.headers[CSRF_HEADER];
    const value = Array.isArray(csrf) ? csrf[0] : csrf;
    if (!value || !sameHash(sha256(value), claims.csh)) {
      // A token issued for another organisation is refused as such before its CSRF token is judged.
      const tenant = await requireTenant(req, deps.db, deps.baseDomain);
      if (claims.org !== tenant.id) throw new AppError('tenant_mismatch');
      throw new AppError('csrf_invalid');
    }
  }
  return claims;
}

/**
 * The principal of verified claims, read in the request's transaction (which has set the claims'
 * organisation) in one statement. The organisation the token names must be the one the address
 * names: only when it is not does a second look-up tell "no such organisation" from "another one".
 */
export async function principalOfClaims(tx: Tx, req: FastifyRequest, claims: AccessClaims, deps: AuthDeps): Promise<Principal> {
  const label = tenantLabel(req, deps.baseDomain);
  const principal = await loadPrincipal(tx, claims.sub, claims.sid);
  if (!principal || principal.organization.subDomainName !== label || principal.organization.deletedAt) {
    const tenant = await requireTenant(req, tx, deps.baseDomain);
    if (claims.org !== tenant.id) throw new AppError('tenant_mismatch');
  }
  const refusal = unusableReason(principal);
  if (refusal) throw new AppError(refusal);
  const org = principal!.organization;
  req.tenant = { id: org.id, label, status: org.organizationStatus, isPlatform: org.isPlatform, removed: org.deletedAt !== null };
  req.principal = principal;
  return principal!;
}

/** The rights check of a contract's access, for a loaded principal. */
export function checkAccess(principal: Principal, contract: Pick<Endpoint, 'access' | 'allowedAfterTrial' | 'method'>): void {
  const { access } = contract;
  if ('public' in access || 'session' in access) return checkTrial(principal, contract);
  if ('platform' in access && !principal.isPlatformAdmin) throw new AppError('forbidden');
  if ('admin' in access && !principal.isAdmin) throw new AppError('forbidden');
  // Without the right at all the answer is "forbidden"; an expired trial is said as such just below.
  if ('subject' in access && !can({ ...principal.access, trialExpired: false }, access.subject, access.action)) {
    throw new AppError('forbidden');
  }
  checkTrial(principal, contract);
}

/**
 * Registration module, trial expiry (spec 001 §4/§8): once a free trial has ended, every create,
 * update and workflow step is refused; reads, deletes, sign-in/out and personal settings go on.
 */
function checkTrial(principal: Principal, contract: Pick<Endpoint, 'access' | 'allowedAfterTrial' | 'method'>): void {
  if (principal.trialExpired && !contract.allowedAfterTrial && refusedAfterTrial(contract.access, contract.method)) {
    throw new AppError('free_trial_expired');
  }
}

/** Registration module: module writes (a right other than read or delete, or an admin-only write). */
function refusedAfterTrial(access: Access, method: string): boolean {
  if ('subject' in access) return access.action !== 'read' && access.action !== 'delete';
  if ('admin' in access) return UNSAFE.has(method) && method !== 'DELETE';
  return false;
}
