import {
  API_TOKEN_PREFIX,
  CSRF_HEADER,
  can,
  missingLicence,
  type Access,
  type Endpoint,
  type GuestAccess,
  type Language,
} from '@bulwark/domain';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import { loadPrincipal, unusableReason, type Principal } from '../auth/principal.js';
import type { PrincipalCache } from '../auth/principal-cache.js';
import { sameHash, sha256, type AccessClaims, type TokenSigner } from '../auth/tokens.js';
import { apiTokens } from '../db/schema.js';
import { hit } from './rate-limit.js';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db, Tx } from '../db/db.js';
import { AppError } from '../errors.js';
import { resolveTenant, tenantLabel, type Tenant } from './tenancy.js';

export type { Access };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint contract the route was mounted from (platform/http/route.ts). */
    contract?: Endpoint;
  }
  interface FastifyInstance {
    /** This node's principal and tenant cache (app.ts); absent on an app built without one. */
    principals?: PrincipalCache;
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
  /** Whether a guest may call it (absent: refused); see EndpointDef.guests. */
  guests?: GuestAccess;
  allowedWhenStorageFull?: true;
  /** The contract's id (`observations.list`); absent only for the API documentation's own routes. */
  contractId?: string;
  /** The purpose of the file a multipart route reads (`workbook` for imports). */
  upload?: string;
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
        guests: contract?.guests,
        allowedWhenStorageFull: contract?.allowedWhenStorageFull,
        contractId: contract?.id,
        upload: contract?.upload,
      });
    }
  });
}

/** The organisation this request is for; unknown or removed organisations are "not found". */
export async function requireTenant(req: FastifyRequest, db: Db | Tx, baseDomain: string): Promise<Tenant> {
  if (req.tenant) return req.tenant;
  const tenant = await resolveTenant(db, tenantLabel(req, baseDomain), req.server.principals);
  if (!tenant || tenant.removed) throw new AppError('tenant_not_found');
  req.tenant = tenant;
  return tenant;
}

export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  return header.slice(7).trim() || null;
}

type AuthDeps = {
  db: Db;
  tokens: TokenSigner;
  baseDomain: string;
  apiTokenRequestsPerMinute: number;
  principals?: PrincipalCache;
};

/** A request's verified claims; `apiToken` (the SHA-256 of an API token) when it carries one instead of a sign-in token. */
export type RequestClaims = AccessClaims & { apiToken?: string };

/**
 * The token's claims, checked without touching the database: signature, expiry, and the CSRF token on
 * unsafe methods. Any refusal first says "no such organisation" when the address names none, as the
 * tenant is the first thing a request is judged on.
 */
export async function verifyRequest(req: FastifyRequest, deps: AuthDeps): Promise<RequestClaims> {
  const token = bearerToken(req);
  if (token?.startsWith(API_TOKEN_PREFIX)) return apiTokenClaims(req, token, deps);
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
 * An API token (modules/api-tokens) is looked up in the organisation of the address, and only there:
 * a token is never valid on another organisation's sub-domain. It carries no CSRF token (it is no
 * browser's cookie or stored session: whoever holds it sends it on purpose).
 */
async function apiTokenClaims(req: FastifyRequest, token: string, deps: AuthDeps): Promise<RequestClaims> {
  const tenant = await requireTenant(req, deps.db, deps.baseDomain);
  if (tenant.isPlatform) throw new AppError('unauthorized');
  return { sub: '', org: tenant.id, sid: '', csh: '', apiToken: sha256(token) };
}

/** The service account of a live API token of the transaction's organisation, counted against its rate limit. */
async function apiTokenPrincipal(tx: Tx, hash: string, deps: AuthDeps): Promise<Principal | null> {
  const now = new Date();
  const [row] = await tx
    .select({ id: apiTokens.id, userId: apiTokens.userId, sessionId: apiTokens.sessionId, lastUsedAt: apiTokens.lastUsedAt })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hash), isNull(apiTokens.revokedAt), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, now))));
  if (!row) throw new AppError('unauthorized');
  // Per token, shared by every app node (rate_limits), counted before any work is done.
  if ((await hit(deps.db, `api-token:${row.id}`, 60)) > deps.apiTokenRequestsPerMinute) throw new AppError('rate_limited');
  // "Last used" to the minute: a token busy all day writes its row once a minute, not on every request.
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= 60_000) {
    await tx.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id));
  }
  return loadPrincipal(tx, row.userId, row.sessionId);
}

/**
 * The principal of verified claims, read in the request's transaction (which has set the claims'
 * organisation) in one statement, and kept in the node's cache for the session's next requests. The
 * organisation the token names must be the one the address names: only when it is not does a second
 * look-up tell "no such organisation" from "another one".
 */
export async function principalOfClaims(tx: Tx, req: FastifyRequest, claims: RequestClaims, deps: AuthDeps): Promise<Principal> {
  const label = tenantLabel(req, deps.baseDomain);
  // Taken before the read: a change notified while it runs keeps its result out of the cache.
  const generation = deps.principals?.generation() ?? 0;
  const principal = claims.apiToken ? await apiTokenPrincipal(tx, claims.apiToken, deps) : await loadPrincipal(tx, claims.sub, claims.sid);
  if (!principal || principal.organization.subDomainName !== label || principal.organization.deletedAt) {
    const tenant = await requireTenant(req, tx, deps.baseDomain);
    if (claims.org !== tenant.id) throw new AppError('tenant_mismatch');
  }
  const refusal = unusableReason(principal);
  if (refusal) throw new AppError(refusal);
  accept(req, principal!, label);
  if (!claims.apiToken) deps.principals?.put(principal!, generation);
  return principal!;
}

/**
 * The cached principal of verified sign-in claims, when the cache holds it for this session, user,
 * organisation and address; null sends the caller to `principalOfClaims`, which also says every
 * refusal. API tokens always go there: their revocation, expiry and rate limit are judged per request.
 */
export async function cachedPrincipalOfClaims(req: FastifyRequest, claims: RequestClaims, deps: AuthDeps): Promise<Principal | null> {
  if (claims.apiToken || !deps.principals) return null;
  const principal = await deps.principals.current(claims.sid, claims.sub);
  if (!principal || principal.organizationId !== claims.org) return null;
  const label = tenantLabel(req, deps.baseDomain);
  if (principal.organization.subDomainName !== label || unusableReason(principal)) return null;
  accept(req, principal, label);
  return principal;
}

function accept(req: FastifyRequest, principal: Principal, label: string) {
  const org = principal.organization;
  req.tenant = { id: org.id, label, status: org.organizationStatus, isPlatform: org.isPlatform, removed: org.deletedAt !== null };
  req.principal = principal;
}

/** The parts of a contract the router's checks read. */
type Guarded = Pick<Endpoint, 'access' | 'allowedAfterTrial' | 'method' | 'guests' | 'allowedWhenStorageFull'>;

/** The rights check of a contract's access, for a loaded principal. */
export function checkAccess(principal: Principal, contract: Guarded): void {
  checkGuest(principal, contract);
  const { access } = contract;
  if ('public' in access || 'session' in access) {
    checkTrial(principal, contract);
    return checkStorage(principal, contract);
  }
  if ('platform' in access && !principal.isPlatformAdmin) throw new AppError('forbidden');
  if ('admin' in access && !principal.isAdmin) throw new AppError('forbidden');
  checkPermitPlan(principal, access);
  checkLicence(principal, access);
  // Without the right at all the answer is "forbidden"; an expired trial is said as such just below.
  if ('subject' in access && !can({ ...principal.access, trialExpired: false }, access.subject, access.action)) {
    throw new AppError('forbidden');
  }
  checkTrial(principal, contract);
  checkStorage(principal, contract);
}

/**
 * Licences (DECISIONS; the rule is the domain's access/licences.ts): on a paid plan, a role granting a
 * write on a licensed module is not enough without the user's licence for it. `can()` folds the same
 * rule in, so the web hides what cannot be used; this says it first, so that whoever holds the right
 * hears "ask your administrator for a licence", while someone without the right still hears "forbidden".
 */
function checkLicence(principal: Principal, access: Access): void {
  if (!('subject' in access)) return;
  const granted = principal.access.rules.some((r) => r.subject === access.subject && r.actions.includes(access.action));
  if (granted && missingLicence(principal.access, access.subject, access.action)) throw new AppError('licence_required');
}

/**
 * The free account, a cancelled subscription, has no permits (DECISIONS; spec 000 §4, §5: a cancelled
 * subscription blocks Permit create and update). `can()` folds the rule in so the web hides the
 * controls; this says why to whoever's role grants the write: a new permit answers the plan's limit
 * (spec 001 §8 "permit limit reached: delete existing permits or upgrade"), an edit the cancellation.
 */
function checkPermitPlan(principal: Principal, access: Access): void {
  if (!('subject' in access) || access.subject !== 'Permit' || principal.access.subscriptionType !== 'cancelled') return;
  if (access.action !== 'create' && access.action !== 'update') return;
  if (!principal.access.rules.some((r) => r.subject === 'Permit' && r.actions.includes(access.action))) return;
  if (access.action === 'create') throw new AppError('plan_limit_reached', { messageKey: 'permits.errors.limitReached' });
  throw new AppError('subscription_cancelled');
}

/**
 * Guests (DECISIONS: principals of their own kind): a guest reaches only the routes whose contract
 * admits guests, whatever its role holds; the handlers of `own` routes narrow to its own reports.
 */
function checkGuest(principal: Principal, contract: Pick<Endpoint, 'guests'>): void {
  if (principal.kind === 'guest' && !contract.guests) throw new AppError('forbidden');
}

/**
 * Storage used up (DECISIONS; spec 000 §5: exhausted memory blocks create and update for
 * non-platform users): every create, update and upload answers memory_exhausted; reads and deletes go
 * on so that space can be freed, and the writes a contract keeps open (password, language) stay open.
 * Said after the rights, so a caller without the right hears "forbidden" as always.
 */
function checkStorage(principal: Principal, contract: Pick<Endpoint, 'method' | 'allowedWhenStorageFull'>): void {
  if (!principal.access.memExhausted || principal.isPlatformAdmin || contract.allowedWhenStorageFull) return;
  if (contract.method === 'GET' || contract.method === 'DELETE') return;
  throw new AppError('memory_exhausted');
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
