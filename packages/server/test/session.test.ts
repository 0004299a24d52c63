import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/platform/db/db.js';
import { mailOutbox, passwordResetTokens, users } from '../src/platform/db/schema.js';
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

  it('gives the spec’s texts for an unknown e-mail and a wrong password, in the asked language', async () => {
    const unknown = await signInRaw('nobody@alpha.test', PASSWORD);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ code: 'email_not_found', errors: ['Email not found.'] });
    const wrong = await signInRaw(a.userEmail, 'Wrong#pass1');
    expect(wrong.json()).toMatchObject({ code: 'incorrect_password', errors: ['Incorrect password.'] });
    const zh = await signInRaw(a.userEmail, 'Wrong#pass1', { 'accept-language': 'zh-CN,zh;q=0.9' });
    expect(zh.json().code).toBe('incorrect_password');
    expect(zh.json().errors[0]).not.toBe('Incorrect password.');
  });

  it('names the field of a validation error and writes nothing', async () => {
    const res = await signInRaw('not-an-email', '');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { email: expect.any(String), password: expect.any(String) } });
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('tells an inactive or never-activated user to contact the administrator', async () => {
    await inTenant(t.deps.db.app, a.id, async (tx) => {
      await tx.insert(users).values({ email: 'invited@alpha.test', fullName: 'Invited', passwordHash: null });
    });
    const invited = await signInRaw('invited@alpha.test', PASSWORD);
    expect(invited.json()).toMatchObject({ code: 'not_registered' });
    expect(invited.json().errors[0]).toMatch(/contact the administrator/);

    await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ status: 'Inactive' }).where(eq(users.email, a.userEmail)));
    const inactive = await signInRaw(a.userEmail, PASSWORD);
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json()).toMatchObject({ code: 'account_inactive' });
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

  it('throttles guessing on one account, whatever the address', async () => {
    const org = await createOrg(t, 'throttle');
    const codes: string[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/authorize',
        headers: { 'x-tenant': 'throttle' },
        payload: { email: org.adminEmail, password: `Wrong#${i}xx` },
        remoteAddress: nextIp(),
      });
      codes.push(res.json().code);
    }
    expect(codes.slice(0, 10).every((c) => c === 'incorrect_password')).toBe(true);
    expect(codes[10]).toBe('rate_limited');
    // Even the right password waits out the window.
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authorize',
      headers: { 'x-tenant': 'throttle' },
      payload: { email: org.adminEmail, password: PASSWORD },
      remoteAddress: nextIp(),
    });
    expect(right.statusCode).toBe(429);
  });

  it('throttles one address trying many accounts', async () => {
    const ip = '10.99.99.99';
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await signInRaw(`guess${i}@alpha.test`, 'Wrong#pass', {}, ip)).statusCode;
    expect(last).toBe(429);
  });
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

describe('password reset', () => {
  it('mails a link that sets a new password once, ends old sessions, then expires', async () => {
    const org = await createOrg(t, 'resetco');
    const before = await signIn(t, 'resetco', org.userEmail);
    const req = await t.app.inject({
      method: 'POST',
      url: '/api/v1/password_resets',
      headers: { 'x-tenant': 'resetco' },
      payload: { email: org.userEmail },
      remoteAddress: nextIp(),
    });
    expect(req.statusCode).toBe(200);
    const [mail] = await inTenant(t.deps.db.app, org.id, (tx) =>
      tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, org.userEmail)),
    );
    expect(mail).toBeDefined();
    const token = /password-reset\/([\w-]+)/.exec(mail!.body)?.[1];
    expect(token).toBeTruthy();
    expect(mail!.body).toContain('http://resetco.localhost:');

    const weak = await t.app.inject({
      method: 'POST',
      url: `/api/v1/password_resets/${token}`,
      headers: { 'x-tenant': 'resetco' },
      payload: { password: 'weakpassword' },
    });
    expect(weak.json()).toMatchObject({ code: 'validation_failed', fields: { password: expect.stringMatching(/special/) } });

    const set = await t.app.inject({
      method: 'POST',
      url: `/api/v1/password_resets/${token}`,
      headers: { 'x-tenant': 'resetco' },
      payload: { password: 'New#Pass2026' },
    });
    expect(set.statusCode).toBe(200);
    expect((await call(t, before, 'GET', '/api/auth')).statusCode).toBe(401);
    await signIn(t, 'resetco', org.userEmail, 'New#Pass2026');

    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/password_resets/${token}`,
      headers: { 'x-tenant': 'resetco' },
      payload: { password: 'Other#Pass2026' },
    });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toMatchObject({ code: 'link_expired', errors: ['This link has expired.'] });
  });

  it('refuses an expired link', async () => {
    const org = await createOrg(t, 'expiry');
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/password_resets',
      headers: { 'x-tenant': 'expiry' },
      payload: { email: org.adminEmail },
      remoteAddress: nextIp(),
    });
    const [mail] = await inTenant(t.deps.db.app, org.id, (tx) => tx.select().from(mailOutbox));
    const token = /password-reset\/([\w-]+)/.exec(mail!.body)![1];
    await inTenant(t.deps.db.app, org.id, (tx) => tx.update(passwordResetTokens).set({ expiresAt: sql`now() - interval '1 minute'` }));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/password_resets/${token}`,
      headers: { 'x-tenant': 'expiry' },
      payload: { password: 'New#Pass2026' },
    });
    expect(res.json().code).toBe('link_expired');
  });

  it('says when no account uses the address', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/password_resets',
      headers: { 'x-tenant': 'alpha' },
      payload: { email: 'ghost@alpha.test' },
      remoteAddress: nextIp(),
    });
    expect(res.json().code).toBe('email_not_found');
    const rows = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx
        .select()
        .from(passwordResetTokens)
        .where(and(eq(passwordResetTokens.organizationId, a.id))),
    );
    expect(rows).toEqual([]);
  });
});
