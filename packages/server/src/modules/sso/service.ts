import {
  SSO_EXCHANGE_TTL_SECONDS,
  SSO_REQUEST_TTL_SECONDS,
  emailSchema,
  type SignInResponse,
  type SsoConfigBody,
  type SsoConfigResponse,
  type SsoErrorCode,
} from '@bulwark/domain';
import { and, asc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { randomToken, sameHash, sha256 } from '../../platform/auth/tokens.js';
import { recordAudit } from '../../platform/audit.js';
import { publicUrl } from '../../platform/config.js';
import { inTenant, type Tx } from '../../platform/db/db.js';
import { organizations, roles, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { limit } from '../../platform/http/rate-limit.js';
import type { Tenant } from '../../platform/http/tenancy.js';
import { createSessionService, type SessionMeta } from '../session/service.js';
import { providerConfig, type ProviderSettings } from './oidc.js';
import { createSecretBox } from './secret-box.js';
import { ssoConfigs, ssoExchangeCodes, ssoRequests } from './tables.js';

/** A single sign-on that cannot go on; the routes send the browser to /login?sso_error=<code>. */
export class SsoFailure extends Error {
  constructor(
    readonly code: SsoErrorCode,
    readonly detail?: unknown,
  ) {
    super(code);
  }
}

// Public routes: per address, shared by every app node.
const START_LIMIT = { max: 30, windowSeconds: 300 };
const EXCHANGE_LIMIT = { max: 30, windowSeconds: 300 };

export const CALLBACK_PATH = '/api/sso/callback';

type ConfigRow = typeof ssoConfigs.$inferSelect;

export function createSsoService(deps: Pick<AppDeps, 'db' | 'tokens' | 'config' | 'mail' | 'jobs' | 'push'>) {
  const app = deps.db.app;
  const box = createSecretBox(deps.config.appSecret, 'sso-client-secret');
  const sessions = createSessionService(deps);

  const redirectUri = (tenant: Pick<Tenant, 'label'>) => `${publicUrl(deps.config, tenant.label)}${CALLBACK_PATH}`;

  async function loadConfig(tx: Tx): Promise<ConfigRow | undefined> {
    const [row] = await tx.select().from(ssoConfigs);
    return row;
  }

  function settingsOf(row: ConfigRow): ProviderSettings | null {
    const clientSecret = box.open(row.clientSecretEnc);
    return clientSecret === null ? null : { issuerUrl: row.issuerUrl, clientId: row.clientId, clientSecret };
  }

  // ---- Settings (organisation admin, in the request's transaction) ----

  async function getSettings(tx: Tx, tenant: Pick<Tenant, 'label'>): Promise<SsoConfigResponse> {
    const row = await loadConfig(tx);
    const roleRows = await tx.select({ id: roles.id, name: roles.name }).from(roles).orderBy(asc(roles.name));
    return {
      configured: !!row,
      issuer_url: row?.issuerUrl ?? '',
      client_id: row?.clientId ?? '',
      client_secret_set: !!row,
      allowed_domains: row?.allowedDomains ?? [],
      enabled: row?.enabled ?? false,
      create_users: row?.createUsers ?? false,
      default_role_id: row?.defaultRoleId ?? null,
      redirect_uri: redirectUri(tenant),
      roles: roleRows,
      updated_at: row?.updatedAt.toISOString() ?? null,
    };
  }

  /**
   * Saves the settings after reading the provider's discovery document: a wrong issuer is refused at
   * once. The discovery waits at most ten seconds (oidc.ts).
   */
  async function saveSettings(tx: Tx, actorUserId: string, tenant: Pick<Tenant, 'label'>, body: SsoConfigBody): Promise<SsoConfigResponse> {
    const existing = await loadConfig(tx);
    const newSecret = body.client_secret?.trim() ? body.client_secret.trim() : null;
    const secret = newSecret ?? (existing ? box.open(existing.clientSecretEnc) : null);
    if (!secret) throw new AppError('validation_failed', { fields: { client_secret: 'sso.validation.secretRequired' } });

    try {
      await providerConfig({ issuerUrl: body.issuer_url, clientId: body.client_id, clientSecret: secret }, true);
    } catch {
      throw new AppError('validation_failed', { fields: { issuer_url: 'sso.validation.issuerUnreachable' } });
    }

    if (body.default_role_id) {
      const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, body.default_role_id));
      if (!role) throw new AppError('validation_failed', { fields: { default_role_id: 'sso.validation.roleUnknown' } });
    }
    const values = {
      issuerUrl: body.issuer_url,
      clientId: body.client_id,
      clientSecretEnc: box.seal(secret),
      allowedDomains: [...new Set(body.allowed_domains)],
      enabled: body.enabled,
      createUsers: body.create_users,
      defaultRoleId: body.default_role_id,
      updatedAt: new Date(),
    };
    await tx.insert(ssoConfigs).values(values).onConflictDoUpdate({ target: ssoConfigs.organizationId, set: values });
    await recordAudit(tx, {
      actorUserId,
      action: existing ? 'update' : 'create',
      entity: 'SsoConfig',
      changes: {
        issuer_url: body.issuer_url,
        client_id: body.client_id,
        client_secret_changed: newSecret !== null,
        allowed_domains: values.allowedDomains,
        enabled: body.enabled,
        create_users: body.create_users,
        default_role_id: body.default_role_id,
      },
    });
    return getSettings(tx, tenant);
  }

  async function removeSettings(tx: Tx, actorUserId: string): Promise<void> {
    const gone = await tx.delete(ssoConfigs).returning({ id: ssoConfigs.id });
    if (gone.length === 0) throw new AppError('not_found');
    await tx.delete(ssoRequests);
    await recordAudit(tx, { actorUserId, action: 'destroy', entity: 'SsoConfig' });
  }

  /** Whether the sign-in page offers single sign-on (nothing else about the settings is public). */
  async function isEnabled(tenant: Tenant): Promise<boolean> {
    if (tenant.isPlatform) return false;
    const row = await inTenant(app, tenant.id, loadConfig);
    return !!row?.enabled;
  }

  // ---- The sign-in flow (authorization code + PKCE + state + nonce), signed out: each step opens the
  // transactions of the address's organisation it needs, around the calls to the provider ----

  /** Starts a sign-in: remembers state, nonce and verifier, and gives the provider address and the browser's binding cookie. */
  async function start(tenant: Tenant, ip: string): Promise<{ location: string; browser: string }> {
    try {
      await limit(app, `sso-start:${ip}`, START_LIMIT.max, START_LIMIT.windowSeconds);
    } catch {
      throw new SsoFailure('rate_limited');
    }
    if (tenant.isPlatform) throw new SsoFailure('not_configured');
    if (tenant.status !== 'Active') throw new SsoFailure('organization_inactive');
    const row = await inTenant(app, tenant.id, loadConfig);
    if (!row?.enabled) throw new SsoFailure('not_configured');
    const settings = settingsOf(row);
    if (!settings) throw new SsoFailure('provider_error', 'client secret cannot be opened (app secret changed?)');
    let config: client.Configuration;
    try {
      config = await providerConfig(settings);
    } catch (err) {
      throw new SsoFailure('provider_error', err);
    }

    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const browser = randomToken();
    await inTenant(app, tenant.id, async (tx) => {
      await tx.delete(ssoRequests).where(lt(ssoRequests.expiresAt, new Date()));
      await tx.insert(ssoRequests).values({
        stateHash: sha256(state),
        browserHash: sha256(browser),
        codeVerifier,
        nonce,
        expiresAt: new Date(Date.now() + SSO_REQUEST_TTL_SECONDS * 1000),
      });
    });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri(tenant),
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { location: url.href, browser };
  }

  /**
   * The provider's answer. Validates state (bound to this browser), the code exchange with the PKCE
   * verifier, the ID token and its nonce; matches the verified e-mail to a user of this organisation;
   * answers a one-time code that the web exchanges for the session.
   */
  async function callback(tenant: Tenant, rawQuery: string, browser: string | null): Promise<string> {
    const params = new URLSearchParams(rawQuery);
    const state = params.get('state');
    if (!state || !browser) throw new SsoFailure('expired');
    const pending = await inTenant(app, tenant.id, async (tx) => {
      const [row] = await tx
        .delete(ssoRequests)
        .where(eq(ssoRequests.stateHash, sha256(state)))
        .returning();
      return row;
    });
    if (!pending || pending.expiresAt < new Date() || !sameHash(pending.browserHash, sha256(browser))) throw new SsoFailure('expired');
    if (tenant.status !== 'Active') throw new SsoFailure('organization_inactive');

    const row = await inTenant(app, tenant.id, loadConfig);
    if (!row?.enabled) throw new SsoFailure('not_configured');
    const settings = settingsOf(row);
    if (!settings) throw new SsoFailure('provider_error', 'client secret cannot be opened');

    let email: unknown;
    let verified: unknown;
    let name: unknown;
    try {
      const config = await providerConfig(settings);
      const currentUrl = new URL(redirectUri(tenant));
      currentUrl.search = rawQuery;
      const tokens = await client.authorizationCodeGrant(config, currentUrl, {
        expectedState: state,
        expectedNonce: pending.nonce,
        pkceCodeVerifier: pending.codeVerifier,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('no ID token');
      ({ email, email_verified: verified, name } = claims);
      if (email === undefined) {
        // Many providers put the e-mail only in the UserInfo answer; its subject must be the ID token's.
        ({ email, email_verified: verified, name } = await client.fetchUserInfo(config, tokens.access_token, claims.sub));
      }
    } catch (err) {
      throw new SsoFailure('provider_error', err);
    }

    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) throw new SsoFailure('not_registered');
    if (verified !== true) throw new SsoFailure('email_not_verified');
    const address = parsed.data;
    const domain = address.slice(address.lastIndexOf('@') + 1);
    if (row.allowedDomains.length > 0 && !row.allowedDomains.includes(domain)) throw new SsoFailure('domain_not_allowed');

    return inTenant(app, tenant.id, async (tx) => {
      const [found] = await tx
        .select({ id: users.id, status: users.status, isIntegration: users.isIntegration })
        .from(users)
        .where(sql`lower(${users.email}) = ${address}`);
      let userId: string;
      if (!found) {
        if (!row.createUsers || !row.defaultRoleId) throw new SsoFailure('not_registered');
        userId = await createUser(tx, address, typeof name === 'string' ? name : '', row.defaultRoleId);
      } else {
        // A service account is reached by its API tokens only, whatever an identity provider asserts.
        if (found.status === 'Deleted' || found.isIntegration) throw new SsoFailure('not_registered');
        if (found.status !== 'Active') throw new SsoFailure('account_inactive');
        userId = found.id;
      }
      await tx.delete(ssoExchangeCodes).where(lt(ssoExchangeCodes.expiresAt, new Date()));
      const code = randomToken();
      await tx.insert(ssoExchangeCodes).values({
        codeHash: sha256(code),
        userId,
        browserHash: sha256(browser),
        expiresAt: new Date(Date.now() + SSO_EXCHANGE_TTL_SECONDS * 1000),
      });
      return code;
    });
  }

  /** A user created on first sign-in, within the plan's user limit; no password (they sign in through the provider). */
  async function createUser(tx: Tx, email: string, name: string, roleId: string): Promise<string> {
    const [org] = await tx.select({ userLimit: organizations.userLimit }).from(organizations);
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(users)
      .where(ne(users.status, 'Deleted'));
    if (org && count >= org.userLimit) throw new SsoFailure('plan_limit_reached');
    const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId));
    if (!role) throw new SsoFailure('not_registered');
    const [user] = await tx
      .insert(users)
      .values({ email, fullName: name.trim().slice(0, 200) || email, passwordHash: null, roleId })
      .returning({ id: users.id });
    await recordAudit(tx, { actorUserId: null, action: 'create', entity: 'User', entityId: user!.id, changes: { email, via: 'sso' } });
    return user!.id;
  }

  /** Trades the one-time code (single use, 60 seconds, same browser) for a session, exactly as a password sign-in opens one. */
  async function exchange(tenant: Tenant, code: string, browser: string | null, meta: SessionMeta): Promise<SignInResponse> {
    await limit(app, `sso-exchange:${meta.ip}`, EXCHANGE_LIMIT.max, EXCHANGE_LIMIT.windowSeconds);
    type Outcome = { error: 'sso_failed' | 'organization_inactive' | 'account_inactive' } | { session: SignInResponse };
    const outcome = await inTenant(app, tenant.id, async (tx): Promise<Outcome> => {
      const [row] = await tx
        .update(ssoExchangeCodes)
        .set({ usedAt: new Date() })
        .where(
          and(eq(ssoExchangeCodes.codeHash, sha256(code)), isNull(ssoExchangeCodes.usedAt), gt(ssoExchangeCodes.expiresAt, new Date())),
        )
        .returning();
      if (!row || !browser || !sameHash(row.browserHash, sha256(browser))) return { error: 'sso_failed' };
      const [user] = await tx.select({ status: users.status }).from(users).where(eq(users.id, row.userId));
      if (tenant.status !== 'Active') return { error: 'organization_inactive' };
      if (!user || user.status !== 'Active') return { error: 'account_inactive' };
      return { session: await sessions.openSession(tx, tenant, row.userId, meta, 'sso') };
    });
    // The code is spent even when the exchange is refused (the transaction above commits the mark).
    if ('error' in outcome) throw new AppError(outcome.error);
    return outcome.session;
  }

  return { getSettings, saveSettings, removeSettings, isEnabled, start, callback, exchange, redirectUri };
}
export type SsoService = ReturnType<typeof createSsoService>;
