import { translate } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, nextIp, PASSWORD, signIn, type TestApp } from './helpers.js';
import { eq } from 'drizzle-orm';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'acme');
});
afterAll(() => t.close());

const NEW = 'Brand#new22';
const body = (over: Record<string, string> = {}) => ({ current_password: PASSWORD, password: NEW, password_confirmation: NEW, ...over });

describe('PATCH /api/users/password', () => {
  it('needs a session', async () => {
    const res = await call(t, null, 'PATCH', '/api/users/password', body(), { 'x-tenant': 'acme' });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a wrong current password on its field', async () => {
    const s = await signIn(t, 'acme', org.userEmail);
    const res = await call(t, s, 'PATCH', '/api/users/password', body({ current_password: 'Wrong#pass1' }));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'incorrect_password', fields: { current_password: 'Incorrect password.' } });
    // The session is still good and the old password still works.
    expect((await call(t, s, 'GET', '/api/auth')).statusCode).toBe(200);
    await signIn(t, 'acme', org.userEmail);
  });

  it('checks each field: required current, strength, special character, confirmation', async () => {
    const s = await signIn(t, 'acme', org.userEmail);
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ current_password: '' }, 'current_password', 'This field is required.'],
      [{ password: 'Sh#1', password_confirmation: 'Sh#1' }, 'password', 'The password needs at least 8 characters.'],
      [
        { password: 'longenough1', password_confirmation: 'longenough1' },
        'password',
        'The password needs at least one special character (such as ! # or %).',
      ],
      [{ password_confirmation: 'Other#pass1' }, 'password_confirmation', 'The two passwords differ.'],
    ];
    for (const [over, field, text] of cases) {
      const res = await call(t, s, 'PATCH', '/api/users/password', body(over));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().fields[field]).toBe(text);
    }
    // Nothing changed: the old password still signs in.
    await signIn(t, 'acme', org.userEmail);
  });

  it('refuses a common or breached password, with capitals, digits, symbols or l33t swaps added (issue 12)', async () => {
    const s = await signIn(t, 'acme', org.userEmail);
    for (const [weak, lang] of [
      ['Password#2026', 'en'],
      ['Qwerty123!', 'es'],
      ['!Dragon!', 'tr'],
      ['M0nk3y#99', 'zh'],
    ] as const) {
      const res = await call(t, s, 'PATCH', '/api/users/password', body({ password: weak, password_confirmation: weak }), {
        'accept-language': lang,
      });
      expect(res.statusCode, weak).toBe(400);
      expect(res.json().fields.password).toBe(translate(lang, 'validation.password.common'));
    }
    expect(translate('en', 'validation.password.common')).toMatch(/too common/);
    // Nothing changed: the old password still signs in.
    await signIn(t, 'acme', org.userEmail);
  });

  it('translates the refusal', async () => {
    const s = await signIn(t, 'acme', org.userEmail);
    const res = await call(t, s, 'PATCH', '/api/users/password', body({ current_password: 'Wrong#pass1' }), { 'accept-language': 'es' });
    expect(res.json().fields.current_password).toBe('Contraseña incorrecta.');
  });

  it('changes the password, ends the other sessions and keeps this one', async () => {
    const here = await signIn(t, 'acme', org.adminEmail);
    const elsewhere = await signIn(t, 'acme', org.adminEmail);
    const otherUser = await signIn(t, 'acme', org.userEmail);
    const res = await call(t, here, 'PATCH', '/api/users/password', body());
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/changed/);

    expect((await call(t, here, 'GET', '/api/auth')).statusCode).toBe(200);
    expect((await call(t, elsewhere, 'GET', '/api/auth')).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/v1/refresh_token',
      headers: { 'x-tenant': 'acme', 'x-refresh-token': elsewhere.refresh },
    });
    expect(refresh.statusCode).toBe(401);
    // Another user's session is untouched.
    expect((await call(t, otherUser, 'GET', '/api/auth')).statusCode).toBe(200);

    const old = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authorize',
      headers: { 'x-tenant': 'acme' },
      payload: { email: org.adminEmail, password: PASSWORD },
      remoteAddress: nextIp(),
    });
    expect(old.statusCode).toBe(401);
    await signIn(t, 'acme', org.adminEmail, NEW);
    const audits = await t.deps.db.owner.select().from(auditLog).where(eq(auditLog.action, 'password_changed'));
    expect(audits).toHaveLength(1);
  });

  it('limits wrong guesses of the current password', async () => {
    const s = await signIn(t, 'acme', org.userEmail);
    let last = 0;
    for (let i = 0; i < 12; i += 1)
      last = (await call(t, s, 'PATCH', '/api/users/password', body({ current_password: `Wrong#${i}xx` }))).statusCode;
    expect(last).toBe(429);
  });
});
