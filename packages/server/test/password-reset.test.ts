import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/platform/db/db.js';
import { mailOutbox, passwordResetTokens, users } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, nextIp, signIn, type TestApp } from './helpers.js';

/** Password reset by e-mailed link (spec 000 §7), with the answers that tell nobody who has an account. */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

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

  it('answers the same for an unknown, an inactive and a known address, and mails only the known one', async () => {
    const org = await createOrg(t, 'sameanswer');
    await inTenant(t.deps.db.app, org.id, (tx) => tx.update(users).set({ status: 'Inactive' }).where(eq(users.email, org.userEmail)));
    const ask = (email: string, lang = 'en') =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/password_resets',
        headers: { 'x-tenant': 'sameanswer', 'accept-language': lang },
        payload: { email },
        remoteAddress: nextIp(),
      });
    const known = await ask(org.adminEmail);
    const unknown = await ask('ghost@sameanswer.test');
    const inactive = await ask(org.userEmail);
    for (const res of [known, unknown, inactive]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(known.body);
    }
    expect(known.json().message).toMatch(/^If the address belongs to an account here, a link is on its way/);
    expect((await ask('ghost@sameanswer.test', 'es')).body).toBe((await ask(org.adminEmail, 'es')).body);
    const mails = await inTenant(t.deps.db.app, org.id, (tx) => tx.select({ to: mailOutbox.toAddress }).from(mailOutbox));
    expect(mails.map((m) => m.to).sort()).toEqual([org.adminEmail, org.adminEmail]);
    const tokens = await inTenant(t.deps.db.app, org.id, (tx) =>
      tx
        .select()
        .from(passwordResetTokens)
        .where(and(eq(passwordResetTokens.organizationId, org.id))),
    );
    expect(tokens).toHaveLength(2);
  });

  it('mails one account at most 3 links in 15 minutes, answering the same afterwards', async () => {
    const org = await createOrg(t, 'mailflood');
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/password_resets',
        headers: { 'x-tenant': 'mailflood' },
        payload: { email: org.userEmail },
        remoteAddress: nextIp(),
      });
      answers.push(res.body);
    }
    expect(new Set(answers).size).toBe(1);
    expect(await inTenant(t.deps.db.app, org.id, (tx) => tx.select().from(mailOutbox))).toHaveLength(3);
  });

  it('refuses a common or breached password, even dressed up, in the reader’s language', async () => {
    const org = await createOrg(t, 'commonpw');
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/password_resets',
      headers: { 'x-tenant': 'commonpw' },
      payload: { email: org.userEmail },
      remoteAddress: nextIp(),
    });
    const [mail] = await inTenant(t.deps.db.app, org.id, (tx) => tx.select().from(mailOutbox));
    const token = /password-reset\/([\w-]+)/.exec(mail!.body)![1];
    const texts = new Set<string>();
    for (const [password, lang] of [
      ['Password123!', 'en'],
      ['P@ssw0rd!', 'es'],
      ['!Qwerty2024', 'tr'],
      ['Sunshine#1', 'zh'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/password_resets/${token}`,
        headers: { 'x-tenant': 'commonpw', 'accept-language': lang },
        payload: { password },
      });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      texts.add(res.json().fields.password);
    }
    expect(texts.size).toBe(4);
    expect([...texts][0]).toMatch(/too common/);
    // The link is still good: an uncommon password is taken.
    const set = await t.app.inject({
      method: 'POST',
      url: `/api/v1/password_resets/${token}`,
      headers: { 'x-tenant': 'commonpw' },
      payload: { password: 'Crane#Lantern#58' },
    });
    expect(set.statusCode).toBe(200);
  });
});
