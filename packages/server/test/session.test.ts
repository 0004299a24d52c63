import { eq, isNull, sql } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/platform/db/db.js';
import { refreshTokens, sessions, users } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, nextIp, PASSWORD, signIn, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'alpha');
});
afterAll(() => t.close());

const signInRaw = (email: string, password: string, extra: Record<string, string> = {}, ip = nextIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/authorize',
    headers: { 'x-tenant': 'alpha', ...extra },
    payload: { email, password },
    remoteAddress: ip,
  });

describe('sign-in', () => {
  it('refuses the GET form: credentials never travel in a URL', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/authorize?email=${a.adminEmail}&password=${PASSWORD}`,
      headers: { 'x-tenant': 'alpha' },
    });
    expect(res.statusCode).toBe(405);
    expect(res.json().errors[0]).toMatch(/never sent in a URL/);
  });

  it('signs in with a JSON body and returns tokens, CSRF and the profile', async () => {
    const res = await signInRaw(a.adminEmail.toUpperCase(), PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ auth: true, domain: 'alpha', expires_in: 900 });
    expect(body.token.split('.')).toHaveLength(3);
    expect(body.csrf.length).toBeGreaterThan(20);
    expect(body.refresh.length).toBeGreaterThan(30);
    expect(body.profile.user).toMatchObject({ email: a.adminEmail, is_admin: true, status: 'Active' });
    expect(body.profile.organization).toMatchObject({ sub_domain_name: 'alpha', onboarding_pending: false });
    expect(body.profile.rules.find((r: { subject: string }) => r.subject === 'Observation').actions).toContain('read');
    expect(res.body).not.toMatch(/password_hash|passwordHash|\$argon2/);
  });

  it('gives one answer to every failed sign-in, whatever the cause, in the asked language (DECISIONS.md)', async () => {
    // An organisation of its own: five wrong passwords start the account's waits (sign-in-throttle.test.ts).
    const o = await createOrg(t, 'oneanswer');
    await inTenant(t.deps.db.app, o.id, async (tx) => {
      await tx.insert(users).values({ email: 'never-activated@oneanswer.test', fullName: 'Invited', passwordHash: null });
    });
    const signInAt = (email: string, password: string, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/authorize',
        headers: { 'x-tenant': 'oneanswer', 'accept-language': lang },
        payload: { email, password },
        remoteAddress: nextIp(),
      });
    const answers = [
      await signInAt('nobody@oneanswer.test', PASSWORD), // no such account
      await signInAt(o.userEmail, 'Wrong#pass1'), // wrong password
      await signInAt('never-activated@oneanswer.test', PASSWORD), // invited, no password yet
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'sign_in_failed', errors: ['E-mail or password is incorrect.'] });
    }
    const texts = new Set<string>();
    for (const lang of ['en', 'es', 'tr', 'zh']) {
      const unknown = await signInAt('nobody@oneanswer.test', PASSWORD, lang);
      const wrong = await signInAt(o.adminEmail, 'Wrong#pass1', lang);
      expect(unknown.body).toBe(wrong.body);
      texts.add(wrong.json().errors[0]);
    }
    expect(texts.size).toBe(4);
  });

  it('says "not registered" only after the right password', async () => {
    await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ status: 'Deleted' }).where(eq(users.email, a.userEmail)));
    try {
      expect((await signInRaw(a.userEmail, 'Wrong#pass1')).json().code).toBe('sign_in_failed');
      const right = await signInRaw(a.userEmail, PASSWORD);
      expect(right.statusCode).toBe(403);
      expect(right.json().code).toBe('not_registered');
    } finally {
      await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ status: 'Active' }).where(eq(users.email, a.userEmail)));
    }
  });

  it('names the field of a validation error and writes nothing', async () => {
    const res = await signInRaw('not-an-email', '');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { email: expect.any(String), password: expect.any(String) } });
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('tells an inactive user to contact the administrator, after the right password only', async () => {
    await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ status: 'Inactive' }).where(eq(users.email, a.userEmail)));
    expect((await signInRaw(a.userEmail, 'Wrong#pass1')).json().code).toBe('sign_in_failed');
    const inactive = await signInRaw(a.userEmail, PASSWORD);
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json()).toMatchObject({ code: 'account_inactive' });
    expect(inactive.json().errors[0]).toMatch(/contact the administrator/);
    await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ status: 'Active' }).where(eq(users.email, a.userEmail)));
  });

  it('ends the session of a user who becomes inactive', async () => {
    const s = await signIn(t, 'alpha', a.userEmail);
    expect((await call(t, s, 'GET', '/api/auth')).statusCode).toBe(200);
    await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ status: 'Error' }).where(eq(users.email, a.userEmail)));
    const res = await call(t, s, 'GET', '/api/users/user_profile');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('account_inactive');
    await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ status: 'Active' }).where(eq(users.email, a.userEmail)));
  });

  // The throttles (growing waits per account and per address, the owner's mail): sign-in-throttle.test.ts.
});

describe('session', () => {
  it('requires the CSRF token on unsafe methods only', async () => {
    const s = await signIn(t, 'alpha', a.adminEmail);
    expect((await call(t, { ...s, csrf: '' }, 'GET', '/api/auth')).statusCode).toBe(200);
    const none = await t.app.inject({
      method: 'PATCH',
      url: '/api/users/user_profile',
      headers: { 'x-tenant': 'alpha', authorization: `Bearer ${s.token}` },
      payload: { locale: 'tr' },
    });
    expect(none.json()).toMatchObject({ code: 'csrf_invalid' });
    const wrong = await call(t, { ...s, csrf: 'forged-token-value' }, 'PATCH', '/api/users/user_profile', { locale: 'tr' });
    expect(wrong.statusCode).toBe(403);
    const ok = await call(t, s, 'PATCH', '/api/users/user_profile', { locale: 'tr' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user.locale).toBe('tr');
  });

  it('rotates the refresh token, and a reused one revokes the whole session family', async () => {
    const s = await signIn(t, 'alpha', a.adminEmail);
    const refresh = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/refresh_token', headers: { 'x-tenant': 'alpha', 'x-refresh-token': token } });
    const first = await refresh(s.refresh);
    expect(first.statusCode).toBe(200);
    const next = first.json();
    expect(next.refresh).not.toBe(s.refresh);
    expect(next.token).not.toBe(s.token);
    // The new pair works.
    expect(
      (await call(t, { ...s, token: next.token, csrf: next.csrf }, 'PATCH', '/api/users/user_profile', { locale: 'en' })).statusCode,
    ).toBe(200);
    // Replaying the spent token: refused, and the family dies with it.
    expect((await refresh(s.refresh)).json()).toMatchObject({ code: 'session_expired' });
    expect((await refresh(next.refresh)).statusCode).toBe(401);
    expect((await call(t, { ...s, token: next.token }, 'GET', '/api/auth')).statusCode).toBe(401);
  });

  it('refuses a refresh token at another organisation’s address', async () => {
    await createOrg(t, 'other');
    const s = await signIn(t, 'alpha', a.adminEmail);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/refresh_token',
      headers: { 'x-tenant': 'other', 'x-refresh-token': s.refresh },
    });
    expect(res.statusCode).toBe(401);
  });

  it('signs out one session, or every session of the user', async () => {
    const one = await signIn(t, 'alpha', a.adminEmail);
    const two = await signIn(t, 'alpha', a.adminEmail);
    expect((await call(t, one, 'DELETE', '/api/v1/user_token')).statusCode).toBe(200);
    expect((await call(t, one, 'GET', '/api/auth')).statusCode).toBe(401);
    expect((await call(t, two, 'GET', '/api/auth')).statusCode).toBe(200);
    const three = await signIn(t, 'alpha', a.adminEmail);
    expect((await call(t, three, 'DELETE', '/api/v2/user_logout')).statusCode).toBe(200);
    expect((await call(t, two, 'GET', '/api/auth')).statusCode).toBe(401);
    expect((await call(t, three, 'GET', '/api/auth')).statusCode).toBe(401);
  });

  it('resets the current session from its refresh token alone', async () => {
    const s = await signIn(t, 'alpha', a.adminEmail);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reset_current_session',
      headers: { 'x-tenant': 'alpha', 'x-refresh-token': s.refresh },
    });
    expect(res.json()).toEqual({ ok: true });
    expect((await call(t, s, 'GET', '/api/auth')).statusCode).toBe(401);
  });

  it('answers the connection check without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/api_connection_checks' });
    expect(res.json()).toEqual({ ok: true });
  });

  it('returns the profile on both paths, and 401 without a token', async () => {
    const s = await signIn(t, 'alpha', a.userEmail);
    for (const url of ['/api/users/user_profile', '/api/v2/users/user_profile']) {
      const res = await call(t, s, 'GET', url);
      expect(res.statusCode).toBe(200);
      expect(Object.keys(res.json()).sort()).toEqual(['organization', 'organization_modules', 'rules', 'user']);
      expect(res.json().rules).toHaveLength(2);
      expect(res.json().rules).toEqual(
        expect.arrayContaining([
          { subject: 'Observation', actions: ['read'] },
          { subject: 'Incident', actions: ['read'] },
        ]),
      );
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/users/user_profile', headers: { 'x-tenant': 'alpha' } })).statusCode).toBe(401);
  });
});

describe('session lifetime', () => {
  it('ends a session 30 days after sign-in, however often it was refreshed', async () => {
    const org = await createOrg(t, 'lifetime');
    const s = await signIn(t, 'lifetime', org.userEmail);
    const refresh = (token: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/refresh_token', headers: { 'x-tenant': 'lifetime', 'x-refresh-token': token } });
    const next = await refresh(s.refresh);
    expect(next.statusCode).toBe(200);
    await inTenant(t.deps.db.app, org.id, (tx) =>
      tx.update(sessions).set({ createdAt: sql`now() - interval '30 days' - interval '1 minute'` }),
    );
    // The access token is unexpired and well signed, the refresh token unspent: the session is over all the same.
    expect((await call(t, { ...s, token: next.json().token, csrf: next.json().csrf }, 'GET', '/api/auth')).statusCode).toBe(401);
    expect((await refresh(next.json().refresh)).json()).toMatchObject({ code: 'session_expired' });
  });

  it('never issues a refresh token that outlives its session', async () => {
    const org = await createOrg(t, 'lifetime2');
    const s = await signIn(t, 'lifetime2', org.userEmail);
    await inTenant(t.deps.db.app, org.id, (tx) => tx.update(sessions).set({ createdAt: sql`now() - interval '29 days'` }));
    const next = await t.app.inject({
      method: 'POST',
      url: '/api/v1/refresh_token',
      headers: { 'x-tenant': 'lifetime2', 'x-refresh-token': s.refresh },
    });
    expect(next.statusCode).toBe(200);
    const [row] = await inTenant(t.deps.db.app, org.id, (tx) =>
      tx.select({ expiresAt: refreshTokens.expiresAt }).from(refreshTokens).where(isNull(refreshTokens.usedAt)),
    );
    expect(row!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000 + 60_000);
  });

  it('refuses an access token that carries no expiry', async () => {
    const s = await signIn(t, 'alpha', a.userEmail);
    const claims = decodeJwt(s.token);
    const key = new TextEncoder().encode(t.deps.config.appSecret);
    const forever = await new SignJWT({ org: claims['org'], sid: claims['sid'], csh: claims['csh'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub!)
      .setIssuer(claims.iss!)
      .setIssuedAt()
      .sign(key);
    expect((await call(t, { ...s, token: forever }, 'GET', '/api/auth')).statusCode).toBe(401);
    // The same claims with an expiry are good: only the missing exp is refused.
    const bounded = await new SignJWT({ org: claims['org'], sid: claims['sid'], csh: claims['csh'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub!)
      .setIssuer(claims.iss!)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    expect((await call(t, { ...s, token: bounded }, 'GET', '/api/auth')).statusCode).toBe(200);
  });
});
