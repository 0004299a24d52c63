import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, organizations } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, nextIp, signIn, type TestApp } from './helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let other: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'guesthouse');
  other = await createOrg(t, 'closedshop');
});
afterAll(() => t.close());

const ask = (tenant: string, payload: unknown, lang = 'en') =>
  t.app.inject({
    method: 'POST',
    url: '/api/guest_users',
    headers: { 'x-tenant': tenant, 'accept-language': lang },
    payload: payload as object,
    remoteAddress: nextIp(),
  });
const mailsTo = async (to: string) => t.deps.db.owner.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to));

describe('guest accounts (spec 000 §2 /guest_user_creation; spec 001 §6 guests are unlimited)', () => {
  it("are refused until the organisation's admin allows them", async () => {
    const availability = await t.app.inject({
      method: 'GET',
      url: '/api/guest_users/availability',
      headers: { 'x-tenant': org.subDomain },
    });
    expect(availability.json()).toEqual({ enabled: false, organization: 'guesthouse Ltd' });
    const res = await ask(org.subDomain, { full_name: 'Vera Visitor', email: 'vera@visitors.test' }, 'es');
    expect(res.statusCode).toBe(403);
    expect(res.json().errors[0]).toBe('Esta organización no acepta cuentas de invitado. Pida una invitación a su contacto.');
    expect(await mailsTo('vera@visitors.test')).toHaveLength(0);
  });

  it('may be allowed by an admin only', async () => {
    const user = await signIn(t, org.subDomain, org.userEmail);
    expect((await call(t, user, 'PUT', '/api/organizations/guest_settings', { enabled: true })).statusCode).toBe(403);
    const admin = await signIn(t, org.subDomain, org.adminEmail);
    const on = await call(t, admin, 'PUT', '/api/organizations/guest_settings', { enabled: true });
    expect(on.json()).toEqual({ enabled: true });
    expect((await call(t, admin, 'GET', '/api/organizations/guest_settings')).json()).toEqual({ enabled: true });
  });

  it('checks every field and writes nothing on bad input', async () => {
    const bad = await ask(org.subDomain, { full_name: 'R2D2', email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['email', 'full_name']);
  });

  it('e-mails a link; the guest chooses a password, signs in and may only report', async () => {
    // The plan is full, yet guests are unlimited.
    await t.deps.db.owner.update(organizations).set({ userLimit: 2 }).where(eq(organizations.id, org.id));
    const res = await ask(org.subDomain, { full_name: 'Vera Visitor', email: 'vera@visitors.test', company: 'Acme Cleaning' });
    expect(res.statusCode).toBe(202);
    const [mail] = await mailsTo('vera@visitors.test');
    const token = /\/password-reset\/([^?\s]+)\?activate=1/.exec(mail!.body)?.[1];
    expect(token).toBeTruthy();

    // Asking again, or with a staff member's address, answers the same and sends nothing.
    expect((await ask(org.subDomain, { full_name: 'Vera Visitor', email: 'vera@visitors.test' })).statusCode).toBe(202);
    expect((await ask(org.subDomain, { full_name: 'Someone', email: org.userEmail })).statusCode).toBe(202);
    expect(await mailsTo('vera@visitors.test')).toHaveLength(1);
    expect(await mailsTo(org.userEmail)).toHaveLength(0);

    const activated = await t.app.inject({
      method: 'POST',
      url: '/api/users/activate',
      headers: { 'x-tenant': org.subDomain },
      payload: { token, password: 'Guest#Pass1' },
    });
    expect(activated.statusCode).toBe(200);
    const guest = await signIn(t, org.subDomain, 'vera@visitors.test', 'Guest#Pass1');
    const profile = (await call(t, guest, 'GET', '/api/v2/users/user_profile')).json();
    expect(profile.user.role_name).toBe('Guest');
    expect(profile.user.is_admin).toBe(false);
    expect(profile.rules.map((r: { subject: string }) => r.subject).sort()).toEqual(['Incident', 'Observation']);
    expect((await call(t, guest, 'GET', '/api/sites')).statusCode).toBe(403);
  });

  it('belong to the organisation of the address only', async () => {
    const res = await ask(other.subDomain, { full_name: 'Vera Visitor', email: 'vera2@visitors.test' });
    expect(res.statusCode).toBe(403);
    await expect(signIn(t, other.subDomain, 'vera@visitors.test', 'Guest#Pass1')).rejects.toThrow();
  });
});
