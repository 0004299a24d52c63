import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitAfter } from '../src/platform/auth/throttle.js';
import { sha256 } from '../src/platform/auth/tokens.js';
import { inTenant } from '../src/platform/db/db.js';
import { mailOutbox } from '../src/platform/db/schema.js';
import { ACCOUNT_THROTTLE, ADDRESS_THROTTLE } from '../src/modules/session/sign-in.js';
import { createOrg, createTestApp, nextIp, PASSWORD, type TestApp } from './helpers.js';

/**
 * Issue 12, item 8: guessing is slowed down with growing waits per account and per address,
 * never locked: nobody can lock anyone out, the owner's own address gets through, and the owner is told
 * by e-mail once per burst.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const attempt = (tenant: string, email: string, password: string, ip = nextIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/authorize',
    headers: { 'x-tenant': tenant },
    payload: { email, password },
    remoteAddress: ip,
  });

/** Moves the last failure of a throttle key back in time, as if its wait had run out. */
async function waitOut(key: string, seconds: number) {
  await t.deps.db.ownerPool.query(`update rate_limits set window_start = window_start - make_interval(secs => $2) where key = $1`, [
    sha256(key),
    seconds,
  ]);
}

async function fail(tenant: string, email: string, times: number): Promise<string[]> {
  const codes: string[] = [];
  for (let i = 0; i < times; i++) codes.push((await attempt(tenant, email, `Wrong#${i}guess`)).json().code);
  return codes;
}

describe('the waits', () => {
  it('grow from 15 s, doubling with every failure, to at most 15 minutes', () => {
    expect([4, 5, 6, 7, 8, 9, 10, 11, 20].map((n) => waitAfter(ACCOUNT_THROTTLE, n))).toEqual([0, 15, 30, 60, 120, 240, 480, 900, 900]);
  });
});

describe('per account', () => {
  it('after 5 failures from anywhere the next attempt waits, even with the right password; once the wait passed, the right password from a new address signs in', async () => {
    const org = await createOrg(t, 'victim');
    expect(await fail('victim', org.userEmail, 5)).toEqual(Array(5).fill('sign_in_failed'));
    const during = await attempt('victim', org.userEmail, PASSWORD);
    expect(during.statusCode).toBe(429);
    expect(during.json().code).toBe('rate_limited');
    await waitOut(`signin-fail-account:${org.id}:${org.userEmail}`, 16);
    expect((await attempt('victim', org.userEmail, PASSWORD)).statusCode).toBe(200);
  });

  it('is no lock: a burst of wrong guesses never keeps the owner out of their usual address', async () => {
    const org = await createOrg(t, 'owner');
    const home = '198.51.100.7';
    expect((await attempt('owner', org.userEmail, PASSWORD, home)).statusCode).toBe(200);
    // Someone else guesses, far past any hard lock's limit.
    await fail('owner', org.userEmail, 12);
    expect((await attempt('owner', org.userEmail, PASSWORD)).statusCode).toBe(429);
    const back = await attempt('owner', org.userEmail, PASSWORD, home);
    expect(back.statusCode).toBe(200);
    // The right password ends the burst: a new address is no longer kept waiting.
    expect((await attempt('owner', org.userEmail, PASSWORD)).statusCode).toBe(200);
  });

  it('answers an unknown address exactly like a real account, waits included', async () => {
    const org = await createOrg(t, 'nobodyhome');
    await fail('nobodyhome', 'ghost@nobodyhome.test', 5);
    await fail('nobodyhome', org.userEmail, 5);
    const ghost = await attempt('nobodyhome', 'ghost@nobodyhome.test', PASSWORD);
    const real = await attempt('nobodyhome', org.userEmail, 'Wrong#again1');
    expect(ghost.statusCode).toBe(429);
    expect(ghost.body).toBe(real.body);
  });

  it('tells the owner by e-mail once per burst, in their language', async () => {
    const org = await createOrg(t, 'alerted');
    const alerts = () =>
      inTenant(t.deps.db.app, org.id, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, org.userEmail)));
    await fail('alerted', org.userEmail, ACCOUNT_THROTTLE.free - 1);
    expect(await alerts()).toHaveLength(0);
    await fail('alerted', org.userEmail, 1);
    const [mail] = await alerts();
    expect(mail!.subject).toBe('Failed sign-in attempts on your Bulwark EHS account');
    expect(mail!.body).toContain('5 times');
    expect(mail!.body).toContain('http://alerted.localhost:');
    expect(mail!.body).not.toContain('Wrong#');
    // The burst goes on (each wait run out): no second mail.
    for (let i = 0; i < 3; i++) {
      await waitOut(`signin-fail-account:${org.id}:${org.userEmail}`, 3600);
      await fail('alerted', org.userEmail, 1);
    }
    expect(await alerts()).toHaveLength(1);
    // A sign-in ends the burst; the next burst is told again.
    await waitOut(`signin-fail-account:${org.id}:${org.userEmail}`, 3600);
    expect((await attempt('alerted', org.userEmail, PASSWORD)).statusCode).toBe(200);
    await fail('alerted', org.userEmail, ACCOUNT_THROTTLE.free);
    expect(await alerts()).toHaveLength(2);
  });
});

describe('per address', () => {
  it('one address trying many accounts waits after 20 failures; another address does not', async () => {
    await createOrg(t, 'spray');
    const ip = '203.0.113.99';
    const codes: number[] = [];
    for (let i = 0; i <= ADDRESS_THROTTLE.free; i++)
      codes.push((await attempt('spray', `guess${i}@spray.test`, 'Wrong#pass', ip)).statusCode);
    expect(codes.slice(0, ADDRESS_THROTTLE.free).every((c) => c === 401)).toBe(true);
    expect(codes[ADDRESS_THROTTLE.free]).toBe(429);
    expect((await attempt('spray', 'other@spray.test', 'Wrong#pass')).statusCode).toBe(401);
    await waitOut(`signin-fail-ip:${ip}`, 16);
    expect((await attempt('spray', 'again@spray.test', 'Wrong#pass', ip)).statusCode).toBe(401);
  });
});
