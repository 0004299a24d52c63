import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signInResponse } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, roles, users } from '../src/platform/db/schema.js';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { ssoConfigs, ssoExchangeCodes, ssoRequests } from '../src/modules/sso/tables.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

/**
 * The whole single sign-on over real HTTP: the app listening on a port, a real OpenID provider
 * (oidc-provider) on another, and a small browser (cookie jar, redirects followed by hand) between them.
 */

type Account = { email: string; verified: boolean; name: string };
const ACCOUNTS: Record<string, Account> = {
  alice: { email: 'alice@acme.test', verified: true, name: 'Alice Acme' },
  nobody: { email: 'nobody@acme.test', verified: true, name: 'Nobody' },
  inactive: { email: 'ines@acme.test', verified: true, name: 'Ines' },
  outsider: { email: 'olga@elsewhere.test', verified: true, name: 'Olga' },
  unverified: { email: 'uma@acme.test', verified: false, name: 'Uma' },
  newcomer: { email: 'Nina@Acme.test', verified: true, name: 'Nina New' },
  betauser: { email: 'user@beta.test', verified: true, name: 'Beta user' },
};

let t: TestApp;
let appPort: number;
let issuer: string;
let providerServer: http.Server;
let acme: Awaited<ReturnType<typeof createOrg>>;
let beta: Awaited<ReturnType<typeof createOrg>>;
let acmeAdmin: Session;
let betaAdmin: Session;

const appHost = (tenant: string) => `${tenant}.localhost:${appPort}`;
const callbackUrl = (tenant: string) => `http://${appHost(tenant)}/api/sso/callback`;

/** A browser: one cookie jar per host, requests sent to 127.0.0.1 with the Host header of the URL. */
class Browser {
  private jar = new Map<string, Map<string, string>>();

  cookieHeader(host: string): string {
    return [...(this.jar.get(host) ?? new Map<string, string>())].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  send(url: URL, method = 'GET', form?: Record<string, string>, headers: Record<string, string> = {}) {
    const body = form ? new URLSearchParams(form).toString() : undefined;
    return new Promise<{ status: number; location: string | null; text: string; url: URL }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: url.port,
          path: url.pathname + url.search,
          method,
          headers: {
            host: url.host,
            cookie: this.cookieHeader(url.host),
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}),
            ...headers,
          },
        },
        (res) => {
          const cookies = this.jar.get(url.host) ?? new Map<string, string>();
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair, ...attrs] = line.split(';');
            const [name, ...value] = pair!.trim().split('=');
            const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=thu, 01 jan 1970/i.test(a));
            if (expired) cookies.delete(name!);
            else cookies.set(name!, value.join('='));
          }
          this.jar.set(url.host, cookies);
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? null, text, url }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /**
   * Follows redirects from `start`, signing in at the provider as `account` (login, then consent) or
   * aborting there, and stops at the first redirect back to the web app (/sso or /login).
   */
  async signInThroughProvider(start: string, account: string, opts: { abort?: boolean } = {}): Promise<URL> {
    let url = new URL(start);
    let method = 'GET';
    let form: Record<string, string> | undefined;
    for (let hop = 0; hop < 20; hop += 1) {
      const res = await this.send(url, method, form);
      method = 'GET';
      form = undefined;
      if (res.location) {
        const next = new URL(res.location, url);
        if (next.pathname === '/sso' || next.pathname === '/login') return next;
        url = next;
        continue;
      }
      if (res.status === 200 && url.pathname.startsWith('/interaction/')) {
        if (opts.abort) {
          url = new URL(`${url.pathname}/abort`, url);
        } else {
          method = 'POST';
          form = res.text.includes('value="consent"') ? { prompt: 'consent' } : { prompt: 'login', login: account };
        }
        continue;
      }
      throw new Error(`unexpected answer ${res.status} at ${url.href}: ${res.text.slice(0, 300)}`);
    }
    throw new Error('too many redirects');
  }

  async exchange(tenant: string, code: string) {
    const url = new URL(`http://${appHost(tenant)}/api/sso/exchange`);
    const body = JSON.stringify({ code });
    return new Promise<{ status: number; json: Record<string, unknown> }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: {
            host: url.host,
            'x-tenant': tenant,
            cookie: this.cookieHeader(url.host),
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown> }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
}

async function startProvider(): Promise<void> {
  let handler: http.RequestListener = (_req, res) => res.end();
  providerServer = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => providerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'acme-client',
        client_secret: 'acme-secret-value',
        redirect_uris: [callbackUrl('acme')],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
      {
        client_id: 'beta-client',
        client_secret: 'beta-secret-value',
        redirect_uris: [callbackUrl('beta')],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx: unknown, id: string) => {
      const account = ACCOUNTS[id];
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email: account.email, email_verified: account.verified, name: account.name }) };
    },
    pkce: { required: () => true },
    cookies: { keys: ['test-cookie-key-0123456789'] },
    features: { devInteractions: { enabled: true } },
  });
  handler = provider.callback();
}

async function saveSettings(s: Session, body: Record<string, unknown>) {
  return call(t, s, 'PUT', '/api/sso_configs', {
    issuer_url: issuer,
    client_id: `${s.tenant}-client`,
    client_secret: `${s.tenant}-secret-value`,
    allowed_domains: [],
    enabled: true,
    create_users: false,
    default_role_id: null,
    ...body,
  });
}

async function setStatus(email: string, status: 'Active' | 'Inactive') {
  await t.deps.db.owner
    .update(users)
    .set({ status })
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  appPort = (t.app.server.address() as AddressInfo).port;
  // Links and the redirect URI are built from the public address: the tenant's sub-domain on this port.
  t.deps.config.publicUrlTemplate = `http://{tenant}.localhost:${appPort}`;
  await startProvider();
  acme = await createOrg(t, 'acme');
  beta = await createOrg(t, 'beta');
  const orgs = createOrganizationService(t.deps.db.app);
  await orgs.createUser('acme', { email: 'alice@acme.test', fullName: 'Alice', password: 'Alice#pass1', roleName: 'Reader' });
  await orgs.createUser('acme', { email: 'ines@acme.test', fullName: 'Ines', password: 'Ines#pass1', roleName: 'Reader' });
  await setStatus('ines@acme.test', 'Inactive');
  acmeAdmin = await signIn(t, 'acme', acme.adminEmail);
  betaAdmin = await signIn(t, 'beta', beta.adminEmail);
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => providerServer?.close(resolve));
  await t?.close();
});

describe('single sign-on settings', () => {
  it('are for the organisation admin only', async () => {
    const user = await signIn(t, 'acme', acme.userEmail);
    expect((await call(t, user, 'GET', '/api/sso_configs')).statusCode).toBe(403);
    const body = {
      issuer_url: issuer,
      client_id: 'x',
      client_secret: 'y',
      allowed_domains: [],
      enabled: true,
      create_users: false,
      default_role_id: null,
    };
    expect((await call(t, user, 'PUT', '/api/sso_configs', body)).statusCode).toBe(403);
    expect((await call(t, user, 'DELETE', '/api/sso_configs')).statusCode).toBe(403);
    expect((await call(t, null, 'GET', '/api/sso_configs', undefined, { 'x-tenant': 'acme' })).statusCode).toBe(401);
  });

  it('start empty and give the redirect URI to register', async () => {
    const res = await call(t, acmeAdmin, 'GET', '/api/sso_configs');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      configured: false,
      enabled: false,
      create_users: false,
      client_secret_set: false,
      redirect_uri: callbackUrl('acme'),
    });
    expect((await call(t, null, 'GET', '/api/sso/status', undefined, { 'x-tenant': 'acme' })).json()).toEqual({ enabled: false });
  });

  it('validate each field and write nothing on refusal', async () => {
    const http = await saveSettings(acmeAdmin, { issuer_url: 'http://login.example.com' });
    expect(http.statusCode).toBe(400);
    expect(http.json().fields).toMatchObject({ issuer_url: 'The issuer must use https.' });
    const bad = await saveSettings(acmeAdmin, { client_id: '', allowed_domains: ['no domain'], create_users: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      client_id: 'This field is required.',
      'allowed_domains.0': 'Enter a domain such as example.com.',
      default_role_id: 'Choose the role that created users receive.',
    });
    const noSecret = await saveSettings(acmeAdmin, { client_secret: '' });
    expect(noSecret.json().fields).toMatchObject({ client_secret: 'Enter the client secret.' });
    const foreignRole = await t.deps.db.owner.select({ id: roles.id }).from(roles).where(eq(roles.organizationId, beta.id));
    const role = await saveSettings(acmeAdmin, { create_users: true, default_role_id: foreignRole[0]!.id });
    expect(role.json().fields).toMatchObject({ default_role_id: 'This role does not exist.' });
    expect(await t.deps.db.owner.select().from(ssoConfigs)).toHaveLength(0);
  });

  it('refuse an issuer that cannot be reached, with a clear field error', async () => {
    const res = await saveSettings(acmeAdmin, { issuer_url: 'http://127.0.0.1:9/nothing' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.issuer_url).toMatch(/could not be reached/);
  });

  it('save after discovery, keep the secret sealed and never send it back', async () => {
    const res = await saveSettings(acmeAdmin, { allowed_domains: ['ACME.test'] });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      configured: true,
      enabled: true,
      client_secret_set: true,
      allowed_domains: ['acme.test'],
      issuer_url: issuer,
    });
    expect(res.body).not.toContain('acme-secret-value');
    const [row] = await t.deps.db.owner.select().from(ssoConfigs).where(eq(ssoConfigs.organizationId, acme.id));
    expect(row!.clientSecretEnc).not.toContain('acme-secret-value');
    expect(row!.clientSecretEnc.startsWith('v1.')).toBe(true);
    // An empty secret keeps the stored one.
    const again = await saveSettings(acmeAdmin, { client_secret: '', allowed_domains: ['acme.test'] });
    expect(again.statusCode).toBe(200);
    expect((await call(t, null, 'GET', '/api/sso/status', undefined, { 'x-tenant': 'acme' })).json()).toEqual({ enabled: true });
  });

  it('belong to one organisation: another organisation sees its own (empty) settings', async () => {
    const res = await call(t, betaAdmin, 'GET', '/api/sso_configs');
    expect(res.json()).toMatchObject({ configured: false, issuer_url: '' });
    expect((await call(t, null, 'GET', '/api/sso/status', undefined, { 'x-tenant': 'beta' })).json()).toEqual({ enabled: false });
  });
});

describe('single sign-on flow', () => {
  const start = (tenant = 'acme') => `http://${appHost(tenant)}/api/sso/authorize`;

  it('signs an existing active user in, through a one-time code exchanged by the web', async () => {
    const browser = new Browser();
    const back = await browser.signInThroughProvider(start(), 'alice');
    expect(back.pathname).toBe('/sso');
    const code = back.searchParams.get('code')!;
    expect(code.length).toBeGreaterThan(20);
    expect(back.search).not.toMatch(/token|refresh|csrf/);

    const res = await browser.exchange('acme', code);
    expect(res.status).toBe(200);
    const session = { ...signInResponse.parse(res.json), tenant: 'acme' };
    expect(session.profile.user.email).toBe('alice@acme.test');
    expect(session.domain).toBe('acme');
    const auth = await call(t, session, 'GET', '/api/auth');
    expect(auth.statusCode).toBe(200);
    // The session is refreshable like any other: the same code path opened it.
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/refresh_token',
      headers: { 'x-tenant': 'acme', 'x-refresh-token': session.refresh },
    });
    expect(refreshed.statusCode).toBe(200);
    const [audit] = await t.deps.db.owner
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'sign_in' and ${auditLog.changes}->>'method' = 'sso'`);
    expect(audit).toBeDefined();

    // Single use.
    const replay = await browser.exchange('acme', code);
    expect(replay.status).toBe(401);
    expect(replay.json.code).toBe('sso_failed');
  });

  it('refuses an exchange code after 60 seconds', async () => {
    const browser = new Browser();
    const back = await browser.signInThroughProvider(start(), 'alice');
    await t.deps.db.owner
      .update(ssoExchangeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`used_at is null`);
    expect((await browser.exchange('acme', back.searchParams.get('code')!)).status).toBe(401);
  });

  it('refuses an exchange code from another browser (no binding cookie)', async () => {
    const browser = new Browser();
    const back = await browser.signInThroughProvider(start(), 'alice');
    const other = new Browser();
    expect((await other.exchange('acme', back.searchParams.get('code')!)).status).toBe(401);
    // …and the attempt spent it.
    expect((await browser.exchange('acme', back.searchParams.get('code')!)).status).toBe(401);
  });

  it('sends an unknown user to the login page with "not registered"', async () => {
    const back = await new Browser().signInThroughProvider(start(), 'nobody');
    expect(back.pathname).toBe('/login');
    expect(back.searchParams.get('sso_error')).toBe('not_registered');
    expect(await t.deps.db.owner.select().from(users).where(eq(users.email, 'nobody@acme.test'))).toHaveLength(0);
  });

  it('refuses an inactive user', async () => {
    const back = await new Browser().signInThroughProvider(start(), 'inactive');
    expect(back.searchParams.get('sso_error')).toBe('account_inactive');
  });

  it('refuses an e-mail domain that is not allowed', async () => {
    const back = await new Browser().signInThroughProvider(start(), 'outsider');
    expect(back.searchParams.get('sso_error')).toBe('domain_not_allowed');
  });

  it('refuses an e-mail the provider has not verified', async () => {
    const back = await new Browser().signInThroughProvider(start(), 'unverified');
    expect(back.searchParams.get('sso_error')).toBe('email_not_verified');
  });

  it('reports a provider refusal (the person aborts at the provider)', async () => {
    const back = await new Browser().signInThroughProvider(start(), 'alice', { abort: true });
    expect(back.searchParams.get('sso_error')).toBe('provider_error');
  });

  it('refuses a callback without the state of this browser, or with an expired state', async () => {
    const browser = new Browser();
    const first = await browser.send(new URL(start()));
    expect(first.status).toBe(302);
    const authUrl = new URL(first.location!);
    const state = authUrl.searchParams.get('state')!;
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('nonce')).toBeTruthy();
    // Another browser brings the state back: not its sign-in.
    const stranger = await new Browser().send(new URL(`${callbackUrl('acme')}?code=x&state=${state}`));
    expect(new URL(stranger.location!, 'http://x').search).toBe('?sso_error=expired');
    // The right browser with a forged code: the provider refuses the code, and the state is spent.
    const forged = await browser.send(new URL(`${callbackUrl('acme')}?code=forged&state=${state}`));
    expect(new URL(forged.location!, 'http://x').search).toBe('?sso_error=provider_error');
    const again = await browser.send(new URL(`${callbackUrl('acme')}?code=forged&state=${state}`));
    expect(new URL(again.location!, 'http://x').search).toBe('?sso_error=expired');
    // A state past its ten minutes.
    const late = await browser.send(new URL(start()));
    const lateState = new URL(late.location!).searchParams.get('state')!;
    await t.deps.db.owner.update(ssoRequests).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await browser.send(new URL(`${callbackUrl('acme')}?code=x&state=${lateState}`));
    expect(new URL(expired.location!, 'http://x').search).toBe('?sso_error=expired');
    const none = await browser.send(new URL(callbackUrl('acme')));
    expect(new URL(none.location!, 'http://x').search).toBe('?sso_error=expired');
  });

  it('keeps organisations apart', async () => {
    // Beta has no single sign-on: its start page says so.
    const betaStart = await new Browser().send(new URL(start('beta')));
    expect(betaStart.location).toBe('/login?sso_error=not_configured');

    // A user of beta signing in through acme's provider is not acme's user (any domain allowed here).
    expect((await saveSettings(acmeAdmin, { allowed_domains: [] })).statusCode).toBe(200);
    const foreign = await new Browser().signInThroughProvider(start(), 'betauser');
    expect(foreign.searchParams.get('sso_error')).toBe('not_registered');
    expect((await saveSettings(acmeAdmin, { allowed_domains: ['acme.test'] })).statusCode).toBe(200);

    // An acme sign-in's state brought back at beta's address is unknown there.
    const browser = new Browser();
    const first = await browser.send(new URL(start()));
    const state = new URL(first.location!).searchParams.get('state')!;
    const cookie = browser.cookieHeader(appHost('acme'));
    const atBeta = await new Browser().send(new URL(`${callbackUrl('beta')}?code=x&state=${state}`), 'GET', undefined, { cookie });
    expect(atBeta.location).toBe('/login?sso_error=expired');

    // An acme exchange code is worthless at beta, and still good at acme afterwards.
    const alice = new Browser();
    const back = await alice.signInThroughProvider(start(), 'alice');
    const code = back.searchParams.get('code')!;
    const wrongTenant = await alice.exchange('beta', code);
    expect(wrongTenant.status).toBe(401);
    const right = await alice.exchange('acme', code);
    expect(right.status).toBe(200);
    expect(signInResponse.parse(right.json).profile.user.organization_id).toBe(acme.id);
  });

  it('creates a user on first sign-in only when the setting is on, with the chosen role', async () => {
    const [reader] = await t.deps.db.owner
      .select({ id: roles.id })
      .from(roles)
      .where(sql`${roles.organizationId} = ${acme.id} and ${roles.name} = 'Reader'`);
    expect(
      (await saveSettings(acmeAdmin, { allowed_domains: ['acme.test'], create_users: true, default_role_id: reader!.id })).statusCode,
    ).toBe(200);
    const browser = new Browser();
    const back = await browser.signInThroughProvider(start(), 'newcomer');
    expect(back.pathname).toBe('/sso');
    const res = await browser.exchange('acme', back.searchParams.get('code')!);
    expect(res.status).toBe(200);
    const profile = signInResponse.parse(res.json).profile;
    expect(profile.user).toMatchObject({ email: 'nina@acme.test', full_name: 'Nina New', role_name: 'Reader', is_admin: false });
    const [created] = await t.deps.db.owner.select().from(users).where(eq(users.email, 'nina@acme.test'));
    expect(created!.passwordHash).toBeNull();
    // An inactive user is still refused, even with creation on.
    expect((await new Browser().signInThroughProvider(start(), 'inactive')).searchParams.get('sso_error')).toBe('account_inactive');
  });

  it('stops when disabled, and the settings can be removed', async () => {
    expect((await saveSettings(acmeAdmin, { enabled: false })).statusCode).toBe(200);
    expect((await new Browser().send(new URL(start()))).location).toBe('/login?sso_error=not_configured');
    expect((await call(t, acmeAdmin, 'DELETE', '/api/sso_configs')).statusCode).toBe(200);
    expect((await call(t, acmeAdmin, 'DELETE', '/api/sso_configs')).statusCode).toBe(404);
    expect((await call(t, acmeAdmin, 'GET', '/api/sso_configs')).json()).toMatchObject({ configured: false });
  });

  it('rate-limits starting sign-ins from one address', async () => {
    let last = '';
    for (let i = 0; i < 32; i += 1) last = (await new Browser().send(new URL(start('beta')))).location ?? '';
    expect(last).toBe('/login?sso_error=rate_limited');
  });
});
