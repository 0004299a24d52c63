import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole } from '../src/modules/organizations/service.js';
import { sites } from '../src/modules/sites/tables.js';
import { usersModule } from '../src/modules/users/module.js';
import { seedDemoUsers } from '../src/modules/users/seed.js';
import { userLicences } from '../src/modules/users/tables.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { mailOutbox, organizations, passwordResetTokens, roles, users } from '../src/platform/db/schema.js';
import { buildWorkbook, readWorkbookRows } from '../src/platform/export/excel.js';
import type { Principal } from '../src/platform/auth/principal.js';
import { PASSWORD, call, createOrg, createTestApp, signIn, upload, type Session, type TestApp, PNG } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let readerA: Session;
let adminB: Session;
let roleA: { admin: string; reader: string; userManager: string; userReader: string };
let roleB: string;
let siteA1: string;
let siteA2: string;
let siteB: string;

const noRights = {
  rAdd: false,
  rEdit: false,
  rView: false,
  rDestroy: false,
  isRevoke: false,
  isExtend: false,
  isClose: false,
  isReject: false,
  isApprove: false,
};

async function addRole(
  orgId: string,
  name: string,
  rights: Array<{ name: 'User' | 'Permit' | 'Audit' | 'Incident'; rView?: boolean; rAdd?: boolean; rEdit?: boolean }>,
) {
  return asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${orgId}, true)`);
    return createRole(
      tx,
      name,
      rights.map((r) => ({ ...noRights, ...r })),
    );
  });
}

async function addSite(orgId: string, name: string) {
  const [row] = await inTenant(t.deps.db.app, orgId, (tx) =>
    tx
      .insert(sites)
      .values({
        name,
        timeZone: 'Europe/London',
        emergencyPhone: '+44 20 7946 0000',
        address: '1 Test Street',
        city: 'London',
        state: 'London',
        country: 'GB',
        zip: 'E1 6AN',
      })
      .returning({ id: sites.id }),
  );
  return row!.id;
}

const roleIdOf = async (orgId: string, name: string) =>
  (await inTenant(t.deps.db.app, orgId, (tx) => tx.select({ id: roles.id }).from(roles).where(eq(roles.name, name))))[0]!.id;

const userCount = async (orgId: string) =>
  Number((await inTenant(t.deps.db.app, orgId, (tx) => tx.select({ n: sql<number>`count(*)` }).from(users)))[0]!.n);

const setUserLimit = (orgId: string, limit: number) =>
  t.deps.db.owner.update(organizations).set({ userLimit: limit }).where(eq(organizations.id, orgId));

/** The token of the newest activation mail sent to this address. */
async function activationToken(orgId: string, email: string): Promise<string> {
  const [mail] = await inTenant(t.deps.db.app, orgId, (tx) =>
    tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt)).limit(1),
  );
  const match = /\/password-reset\/([A-Za-z0-9_-]+)\?activate=1/.exec(mail?.body ?? '');
  if (!match) throw new Error(`no activation link mailed to ${email}`);
  return match[1]!;
}

let seq = 0;
function invitee(over: Record<string, unknown> = {}) {
  seq += 1;
  return { email: `person${seq}@ua.test`, full_name: 'Maria José Pérez', role_id: roleA.reader, site_ids: [siteA1], ...over };
}

async function invite(s: Session, body: Record<string, unknown>) {
  return call(t, s, 'POST', '/api/users', body);
}

async function workbook(
  rows: Array<Record<string, string>>,
  headers = ['email', 'full_name', 'employee_id', 'phone', 'gender', 'shift', 'role', 'sites'],
) {
  return buildWorkbook(
    'users',
    headers.map((h) => ({ header: h, key: h, value: (r: Record<string, string>) => r[h] ?? '' })),
    rows,
  );
}
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'ua');
  b = await createOrg(t, 'ub');
  roleA = {
    admin: await roleIdOf(a.id, 'Administrator'),
    reader: await roleIdOf(a.id, 'Reader'),
    userManager: await addRole(a.id, 'User manager', [{ name: 'User', rView: true, rAdd: true, rEdit: true }]),
    userReader: await addRole(a.id, 'User reader', [
      { name: 'User', rView: true },
      { name: 'Permit', rView: true },
    ]),
  };
  roleB = await roleIdOf(b.id, 'Reader');
  siteA1 = await addSite(a.id, 'Head Office');
  siteA2 = await addSite(a.id, 'Plant Two');
  siteB = await addSite(b.id, 'Other Plant');
  adminA = await signIn(t, a.subDomain, a.adminEmail);
  readerA = await signIn(t, a.subDomain, a.userEmail);
  adminB = await signIn(t, b.subDomain, b.adminEmail);
});
afterAll(() => t.close());

describe('invite (POST /api/users)', () => {
  it('creates the user unverified without a password, with sites, and mails a 7-day activation link', async () => {
    const body = invitee({ employee_id: 'EMP-7', phone: '+44 20 7946 0958', gender: 'female', shift: 'first', site_ids: [siteA1, siteA2] });
    const res = await invite(adminA, body);
    expect(res.statusCode).toBe(201);
    const u = res.json();
    expect(u).toMatchObject({
      email: body.email,
      full_name: 'Maria José Pérez',
      employee_id: 'EMP-7',
      phone: '+44 20 7946 0958',
      gender: 'female',
      shift: 'first',
      role_id: roleA.reader,
      role_name: 'Reader',
      status: 'Active',
      verified: false,
      is_admin: false,
      licences: [],
    });
    expect([...u.site_ids].sort()).toEqual([siteA1, siteA2].sort());
    const [row] = await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(users).where(eq(users.id, u.id)));
    expect(row!.passwordHash).toBeNull();
    const [token] = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, u.id)),
    );
    const days = (token!.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect(await activationToken(a.id, body.email)).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    // The invited person cannot sign in before activating.
    const attempt = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authorize',
      headers: { 'x-tenant': 'ua' },
      payload: { email: body.email, password: PASSWORD },
    });
    // Answered like any failed sign-in (DECISIONS.md): nobody learns that the address was invited.
    expect(attempt.statusCode).toBe(401);
    expect(attempt.json().code).toBe('sign_in_failed');
  });

  it.each([
    ['email', { email: 'not-an-email' }, 'Enter a valid e-mail address.'],
    ['full_name', { full_name: 'R2-D2' }, 'Use letters only.'],
    ['full_name', { full_name: '' }, 'This field is required.'],
    ['phone', { phone: '+44 12' }, 'Invalid phone number.'],
    ['phone', { phone: 'call me' }, 'Invalid phone number.'],
    ['gender', { gender: 'robot' }, 'This value is not valid.'],
    ['shift', { shift: 'night' }, 'This value is not valid.'],
    ['role_id', { role_id: undefined }, 'Select a user role.'],
    ['employee_id', { employee_id: '#$%' }, 'Use letters, digits, spaces and . _ / - only.'],
  ])('refuses a wrong %s with its message and writes nothing', async (field, over, message) => {
    const before = await userCount(a.id);
    const res = await invite(adminA, invitee(over));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toBe(message);
    expect(await userCount(a.id)).toBe(before);
  });

  it('answers in the caller’s language', async () => {
    const res = await call(t, adminA, 'POST', '/api/users', invitee({ phone: '12' }), { 'accept-language': 'es' });
    expect(res.json().fields.phone).toBe('Número de teléfono no válido.');
  });

  it('refuses an e-mail already present in the organisation, whatever its case', async () => {
    const res = await invite(adminA, invitee({ email: 'USER@UA.TEST' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'email_taken', errors: ['Email already present.'] });
    // The same address is free in another organisation.
    expect(
      (await call(t, adminB, 'POST', '/api/users', { email: 'user@ua.test', full_name: 'Same Person', role_id: roleB, site_ids: [siteB] }))
        .statusCode,
    ).toBe(201);
  });

  it('refuses a duplicate employee ID', async () => {
    await invite(adminA, invitee({ employee_id: 'DUP-1' }));
    const res = await invite(adminA, invitee({ employee_id: 'dup-1' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().fields.employee_id).toBe('Another user already has this employee ID.');
  });

  it('refuses another organisation’s role or site as if they did not exist', async () => {
    const role = await invite(adminA, invitee({ role_id: roleB }));
    expect(role.statusCode).toBe(400);
    expect(role.json().fields.role_id).toBe('No role has this name.');
    const before = await userCount(a.id);
    const site = await invite(adminA, invitee({ site_ids: [siteB] }));
    expect(site.statusCode).toBe(400);
    expect(site.json().fields.site_ids).toBeTruthy();
    expect(await userCount(a.id)).toBe(before);
  });

  it('refuses more active users than the plan allows (plan_limit_reached)', async () => {
    const active = Number(
      (
        await inTenant(t.deps.db.app, a.id, (tx) =>
          tx
            .select({ n: sql<number>`count(*)` })
            .from(users)
            .where(eq(users.status, 'Active')),
        )
      )[0]!.n,
    );
    await setUserLimit(a.id, active);
    try {
      const res = await invite(adminA, invitee());
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'plan_limit_reached', errors: ['Your plan’s limit is reached. Please upgrade.'] });
    } finally {
      await setUserLimit(a.id, 50);
    }
  });

  it('lets only an administrator hand out admin rights, permit issuing or an admin role', async () => {
    const managerEmail = 'manager@ua.test';
    await asPlatform(t.deps.db.app, async (tx) => {
      await tx.execute(sql`select set_config('app.organization_id', ${a.id}, true)`);
      await tx.insert(users).values({ email: managerEmail, fullName: 'Manager', passwordHash: null, roleId: roleA.userManager });
    });
    // Give the manager a password through the activation path, as a real user would.
    const [mgr] = await inTenant(t.deps.db.app, a.id, (tx) => tx.select({ id: users.id }).from(users).where(eq(users.email, managerEmail)));
    const resend = await call(t, adminA, 'POST', `/api/users/${mgr!.id}/resend_activation`);
    expect(resend.statusCode).toBe(200);
    await call(
      t,
      null,
      'POST',
      '/api/users/activate',
      { token: await activationToken(a.id, managerEmail), password: PASSWORD },
      { 'x-tenant': 'ua' },
    );
    const manager = await signIn(t, 'ua', managerEmail);
    expect((await invite(manager, invitee({ is_admin: true }))).statusCode).toBe(403);
    expect((await invite(manager, invitee({ can_issue_permit: true }))).statusCode).toBe(403);
    expect((await invite(manager, invitee({ role_id: roleA.admin }))).statusCode).toBe(403);
    expect((await invite(manager, invitee())).statusCode).toBe(201);
    expect((await call(t, manager, 'PATCH', `/api/users/${a.userId}`, { can_issue_permit: true })).statusCode).toBe(403);
    expect((await call(t, manager, 'PATCH', `/api/users/${a.userId}`, { role_id: roleA.admin })).statusCode).toBe(403);
    expect((await call(t, manager, 'PATCH', `/api/users/${a.userId}`, { shift: 'second' })).statusCode).toBe(200);
    // Nor may a non-admin change their own role.
    expect((await call(t, manager, 'PATCH', `/api/users/${mgr!.id}`, { role_id: roleA.userReader })).statusCode).toBe(403);
    expect((await call(t, manager, 'PATCH', `/api/users/${a.userId}`, { role_id: roleA.userReader })).statusCode).toBe(200);
    // The person whose role changed hears of it by e-mail and in the app.
    const [mail] = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'user@ua.test')).orderBy(desc(mailOutbox.createdAt)).limit(1),
    );
    expect(mail!.body).toContain('User reader');
    await call(t, adminA, 'PATCH', `/api/users/${a.userId}`, { role_id: roleA.reader });
  });
});

describe('rights (User read/create/update)', () => {
  it('refuses every administration call to a user without User rights', async () => {
    expect((await call(t, readerA, 'GET', '/api/users')).statusCode).toBe(403);
    expect((await call(t, readerA, 'GET', `/api/users/${a.adminId}`)).statusCode).toBe(403);
    expect((await invite(readerA, invitee())).statusCode).toBe(403);
    expect((await call(t, readerA, 'PATCH', `/api/users/${a.adminId}`, { shift: 'first' })).statusCode).toBe(403);
    expect((await call(t, readerA, 'POST', `/api/users/${a.adminId}/resend_activation`)).statusCode).toBe(403);
    expect((await call(t, readerA, 'GET', '/api/users/import_template')).statusCode).toBe(403);
    expect((await call(t, readerA, 'GET', '/api/users/licences')).statusCode).toBe(403);
    expect((await call(t, readerA, 'POST', '/api/users/licences', { user_id: a.userId, module: 'permits' })).statusCode).toBe(403);
  });

  it('lets User read list but not create or change', async () => {
    const email = 'userreader@ua.test';
    const res = await invite(adminA, invitee({ email, role_id: roleA.userReader }));
    await call(
      t,
      null,
      'POST',
      '/api/users/activate',
      { token: await activationToken(a.id, email), password: PASSWORD },
      { 'x-tenant': 'ua' },
    );
    const s = await signIn(t, 'ua', email);
    expect((await call(t, s, 'GET', '/api/users')).statusCode).toBe(200);
    expect((await call(t, s, 'GET', `/api/users/${res.json().id}`)).statusCode).toBe(200);
    expect((await invite(s, invitee())).statusCode).toBe(403);
    expect((await call(t, s, 'PATCH', `/api/users/${a.userId}`, { shift: 'first' })).statusCode).toBe(403);
  });

  it('requires a session for the picker lists, and serves them to any signed-in user', async () => {
    expect((await call(t, null, 'GET', '/api/users/all_active_users', undefined, { 'x-tenant': 'ua' })).statusCode).toBe(401);
    expect((await call(t, readerA, 'GET', '/api/users/all_active_users')).statusCode).toBe(200);
  });
});

describe('tenant isolation', () => {
  it('answers 404 for another organisation’s user on every call, and never lists them', async () => {
    const other = b.userId;
    expect((await call(t, adminA, 'GET', `/api/users/${other}`)).statusCode).toBe(404);
    expect((await call(t, adminA, 'PATCH', `/api/users/${other}`, { status: 'Inactive' })).statusCode).toBe(404);
    expect((await call(t, adminA, 'POST', `/api/users/${other}/resend_activation`)).statusCode).toBe(404);
    expect((await upload(t, adminA, `/api/users/${other}/photo`, 'me.png', PNG, 'image/png')).statusCode).toBe(404);
    expect((await call(t, adminA, 'POST', '/api/users/licences', { user_id: other, module: 'permits' })).statusCode).toBe(404);
    expect((await call(t, adminA, 'DELETE', `/api/users/licences/${other}/permits`)).statusCode).toBe(404);
    expect((await call(t, adminA, 'GET', `/api/users/${crypto.randomUUID()}`)).statusCode).toBe(404);

    const listed = (await call(t, adminA, 'GET', '/api/users?per_page=200')).json();
    expect(listed.users.some((u: { id: string }) => u.id === other || u.id === b.adminId)).toBe(false);
    for (const url of [
      '/api/users/all_active_users',
      '/api/users/users_with_si_trained',
      '/api/v2/sites/role_wise_users',
      '/api/users/module_based_users',
    ]) {
      const body = JSON.stringify((await call(t, adminA, 'GET', url)).json());
      expect(body).not.toContain(other);
      expect(body).not.toContain(b.adminId);
    }
    // B's site gives A nobody.
    const bySite = (await call(t, adminA, 'GET', `/api/site_based_module_based_users/${siteB}`)).json();
    expect(bySite.users).toEqual([]);
    const bObs = (await call(t, adminB, 'GET', `/api/individual_module_site_based_all_users?module=incidents&site=${siteA1}`)).json();
    expect(bObs.users).toEqual([]);
  });
});

describe('activation link (7 days, single use)', () => {
  it('sets the password once, marks the user verified, then reports the link expired', async () => {
    const body = invitee();
    const id = (await invite(adminA, body)).json().id;
    const token = await activationToken(a.id, body.email);
    const weak = await call(t, null, 'POST', '/api/users/activate', { token, password: 'short' }, { 'x-tenant': 'ua' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().fields.password).toBe('The password needs at least 8 characters.');
    const ok = await call(t, null, 'POST', '/api/users/activate', { token, password: 'New#Pass99' }, { 'x-tenant': 'ua' });
    expect(ok.statusCode).toBe(200);
    expect((await call(t, adminA, 'GET', `/api/users/${id}`)).json().verified).toBe(true);
    await signIn(t, 'ua', body.email, 'New#Pass99');
    const again = await call(t, null, 'POST', '/api/users/activate', { token, password: 'Other#Pass99' }, { 'x-tenant': 'ua' });
    expect(again.statusCode).toBe(410);
    expect(again.json().errors).toEqual(['This link has expired.']);
    // Verified users get no new link.
    const resend = await call(t, adminA, 'POST', `/api/users/${id}/resend_activation`);
    expect(resend.statusCode).toBe(409);
  });

  it('refuses a link older than 7 days', async () => {
    const body = invitee();
    await invite(adminA, body);
    const token = await activationToken(a.id, body.email);
    await t.deps.db.owner.execute(sql`update password_reset_tokens set expires_at = now() - interval '1 second'
      where user_id = (select id from users where email = ${body.email})`);
    const res = await call(t, null, 'POST', '/api/users/activate', { token, password: 'New#Pass99' }, { 'x-tenant': 'ua' });
    expect(res.statusCode).toBe(410);
  });

  it('works only at its own organisation’s address', async () => {
    const body = invitee();
    await invite(adminA, body);
    const token = await activationToken(a.id, body.email);
    expect((await call(t, null, 'POST', '/api/users/activate', { token, password: 'New#Pass99' }, { 'x-tenant': 'ub' })).statusCode).toBe(
      410,
    );
    expect((await call(t, null, 'POST', '/api/users/activate', { token, password: 'New#Pass99' }, { 'x-tenant': 'ua' })).statusCode).toBe(
      200,
    );
  });

  it('resend sends a new link and makes the old one worthless', async () => {
    const body = invitee();
    const id = (await invite(adminA, body)).json().id;
    const first = await activationToken(a.id, body.email);
    const res = await call(t, adminA, 'POST', `/api/users/${id}/resend_activation`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ email: body.email });
    const second = await activationToken(a.id, body.email);
    expect(second).not.toBe(first);
    expect(
      (await call(t, null, 'POST', '/api/users/activate', { token: first, password: 'New#Pass99' }, { 'x-tenant': 'ua' })).statusCode,
    ).toBe(410);
    expect(
      (await call(t, null, 'POST', '/api/users/activate', { token: second, password: 'New#Pass99' }, { 'x-tenant': 'ua' })).statusCode,
    ).toBe(200);
  });

  it('also activates through the password-reset page the e-mailed link opens', async () => {
    const body = invitee();
    const id = (await invite(adminA, body)).json().id;
    const token = await activationToken(a.id, body.email);
    const res = await call(t, null, 'POST', `/api/v1/password_resets/${token}`, { password: 'New#Pass99' }, { 'x-tenant': 'ua' });
    expect(res.statusCode).toBe(200);
    expect((await call(t, adminA, 'GET', `/api/users/${id}`)).json().verified).toBe(true);
  });
});

describe('PATCH /api/users/{id}', () => {
  it('changes fields and sites, and validates them', async () => {
    const id = (await invite(adminA, invitee())).json().id;
    const res = await call(t, adminA, 'PATCH', `/api/users/${id}`, {
      full_name: 'Ana Lucía',
      phone: '+34 912 345 678',
      site_ids: [siteA2],
      si_trained: true,
      gender: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      full_name: 'Ana Lucía',
      phone: '+34 912 345 678',
      site_ids: [siteA2],
      si_trained: true,
      gender: null,
    });
    const bad = await call(t, adminA, 'PATCH', `/api/users/${id}`, { phone: '+1 555', full_name: 'Ana' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.phone).toBe('Invalid phone number.');
    expect((await call(t, adminA, 'GET', `/api/users/${id}`)).json().full_name).toBe('Ana Lucía');
    expect((await call(t, adminA, 'PATCH', `/api/users/${id}`, { site_ids: [siteB] })).statusCode).toBe(400);
    expect((await call(t, adminA, 'PATCH', `/api/users/${id}`, { status: 'Deleted' })).statusCode).toBe(400);
  });

  it('deactivation ends the user’s sessions and releases licences; reactivation counts against the plan', async () => {
    const email = 'leaver@ua.test';
    const id = (await invite(adminA, invitee({ email }))).json().id;
    await call(
      t,
      null,
      'POST',
      '/api/users/activate',
      { token: await activationToken(a.id, email), password: PASSWORD },
      { 'x-tenant': 'ua' },
    );
    const s = await signIn(t, 'ua', email);
    expect((await call(t, s, 'GET', '/api/users/user_profile')).statusCode).toBe(200);
    expect((await call(t, adminA, 'POST', '/api/users/licences', { user_id: id, module: 'audits' })).statusCode).toBe(200);

    const off = await call(t, adminA, 'PATCH', `/api/users/${id}`, { status: 'Inactive' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ status: 'Inactive', licences: [] });
    expect((await call(t, s, 'GET', '/api/users/user_profile')).statusCode).toBe(401);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/v1/refresh_token',
      headers: { 'x-tenant': 'ua', 'x-refresh-token': s.refresh },
    });
    expect(refresh.statusCode).toBe(401);
    const listedInactive = (await call(t, adminA, 'GET', '/api/users?status=Inactive')).json();
    expect(listedInactive.users.map((u: { id: string }) => u.id)).toContain(id);
    expect((await call(t, adminA, 'GET', '/api/users/all_active_users')).json().users.map((u: { id: string }) => u.id)).not.toContain(id);

    const active = Number(
      (
        await inTenant(t.deps.db.app, a.id, (tx) =>
          tx
            .select({ n: sql<number>`count(*)` })
            .from(users)
            .where(eq(users.status, 'Active')),
        )
      )[0]!.n,
    );
    await setUserLimit(a.id, active);
    try {
      const back = await call(t, adminA, 'PATCH', `/api/users/${id}`, { status: 'Active' });
      expect(back.statusCode).toBe(403);
      expect(back.json().code).toBe('plan_limit_reached');
    } finally {
      await setUserLimit(a.id, 50);
    }
    expect((await call(t, adminA, 'PATCH', `/api/users/${id}`, { status: 'Active' })).json().status).toBe('Active');
  });

  it('refuses deactivating yourself and removing the last administrator', async () => {
    const self = await call(t, adminA, 'PATCH', `/api/users/${a.adminId}`, { status: 'Inactive' });
    expect(self.statusCode).toBe(409);
    expect(self.json().errors).toEqual(['You cannot deactivate your own account.']);
    // The admin holds the Administrator role too: only losing both the flag and the role is a demotion.
    const last = await call(t, adminA, 'PATCH', `/api/users/${a.adminId}`, { is_admin: false, role_id: roleA.reader });
    expect(last.statusCode).toBe(409);
    expect(last.json().errors).toEqual(['At least one active administrator must remain.']);
    // With a second admin, the first may step down.
    const second = (await invite(adminA, invitee({ is_admin: true, role_id: roleA.admin }))).json().id;
    const down = await call(t, adminB, 'PATCH', `/api/users/${b.adminId}`, { is_admin: false, role_id: roleB });
    expect(down.statusCode).toBe(409);
    const secondOff = await call(t, adminA, 'PATCH', `/api/users/${second}`, { is_admin: false });
    expect(secondOff.statusCode).toBe(200);
  });
});

describe('GET /api/users (list, filters, export)', () => {
  it('searches, filters by status, role, site and verification, and paginates', async () => {
    const email = 'zed.search@ua.test';
    const id = (
      await invite(
        adminA,
        invitee({ email, full_name: 'Zed Searchable', employee_id: 'FIND-ME', role_id: roleA.userReader, site_ids: [siteA2] }),
      )
    ).json().id;
    const ids = async (q: string) =>
      (await call(t, adminA, 'GET', `/api/users?per_page=200&${q}`)).json().users.map((u: { id: string }) => u.id) as string[];
    expect(await ids('search=searchable')).toEqual([id]);
    expect(await ids('search=find-me')).toEqual([id]);
    expect(await ids('search=100%25')).toEqual([]);
    expect(await ids(`role=${roleA.userReader}`)).toContain(id);
    expect(await ids(`role=${roleA.reader}`)).not.toContain(id);
    expect(await ids(`site=${siteA2}`)).toContain(id);
    expect(await ids(`site=${siteA1}`)).not.toContain(id);
    expect(await ids('verified=false')).toContain(id);
    expect(await ids('verified=true')).not.toContain(id);
    expect(await ids('status=Active')).toContain(id);

    const page = (await call(t, adminA, 'GET', '/api/users?page=2&per_page=2')).json();
    expect(page.users).toHaveLength(2);
    expect(page.pagination).toMatchObject({ page: 2, per_page: 2 });
    expect(page.pagination.total).toBeGreaterThan(4);
    expect((await call(t, adminA, 'GET', '/api/users?status=Gone')).statusCode).toBe(400);
  });

  it('exports the filtered users as an Excel workbook', async () => {
    const res = await call(t, adminA, 'GET', '/api/users?export_to_excel=true&search=searchable');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { headers, rows } = await readWorkbookRows(res.rawPayload);
    expect(headers[0]).toBe('Name');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.values[headers[1]!]).toBe('zed.search@ua.test');
  });
});

describe('user groups for pickers', () => {
  it('groups active users by what their role reads, by role, by site and by training', async () => {
    const groups = (await call(t, readerA, 'GET', '/api/users/module_based_users')).json();
    const has = (list: Array<{ id: string }>, id: string) => list.some((u) => u.id === id);
    expect(has(groups.inci_users, a.userId)).toBe(true);
    expect(has(groups.permit_users, a.userId)).toBe(false);
    expect(has(groups.users, a.adminId) && has(groups.permit_users, a.adminId) && has(groups.audit_users, a.adminId)).toBe(true);

    const roleWise = (await call(t, adminA, 'GET', '/api/v2/sites/role_wise_users')).json();
    const readers = roleWise.roles.find((r: { role_name: string }) => r.role_name === 'Reader');
    expect(has(readers.users, a.userId)).toBe(true);

    await call(t, adminA, 'PATCH', `/api/users/${a.userId}`, { si_trained: true, site_ids: [siteA1] });
    expect(has((await call(t, readerA, 'GET', '/api/users/users_with_si_trained')).json().users, a.userId)).toBe(true);
    expect(has((await call(t, readerA, 'GET', '/api/users/users_with_si_trained')).json().users, a.adminId)).toBe(false);

    const atSite = (await call(t, adminA, 'GET', `/api/individual_module_site_based_all_users?module=incidents&site=${siteA1}`)).json();
    expect(has(atSite.users, a.userId)).toBe(true);
    const permitsAtSite = (
      await call(t, adminA, 'GET', `/api/individual_module_site_based_all_users?module=permits&site=${siteA1}`)
    ).json();
    expect(has(permitsAtSite.users, a.userId)).toBe(false);
    expect((await call(t, adminA, 'GET', '/api/individual_module_site_based_all_users?module=nothing')).statusCode).toBe(400);

    const one = (await call(t, adminA, 'GET', `/api/site_based_module_based_users/${siteA1}`)).json();
    expect(has(one.inci_users, a.userId)).toBe(true);
    const many = (await call(t, adminA, 'GET', `/api/site_based_module_based_users?sites[]=${siteA2}&sites[]=${siteA1}`)).json();
    expect(has(many.inci_users, a.userId)).toBe(true);
    const none = (await call(t, adminA, 'GET', `/api/site_based_module_based_users?sites[]=${siteA2}`)).json();
    expect(has(none.inci_users, a.userId)).toBe(false);
  });

  it('answers the push requests get_role_wise_users, get_module_based_users, get_used_lincence_count', async () => {
    const handlers = usersModule.push!(t.deps);
    // The people lists need User read (or a module's read), as their routes do.
    const p = {
      organizationId: a.id,
      access: { rules: [{ subject: 'User', actions: ['read'] }], isPlatformAdmin: false, memExhausted: false, subscriptionType: null },
    } as unknown as Principal;
    const roleWise = (await handlers.get_role_wise_users!(p)) as { roles: unknown[] };
    expect(roleWise.roles.length).toBeGreaterThan(0);
    const moduleBased = (await handlers.get_module_based_users!(p)) as { users: Array<{ id: string }> };
    expect(moduleBased.users.some((u) => u.id === a.adminId)).toBe(true);
    const counts = (await handlers.get_used_lincence_count!(p)) as { modules: unknown[] };
    expect(counts.modules).toHaveLength(7);
  });
});

describe('licences (admin only)', () => {
  it('assigns and unassigns, counts used and unassigned per module, and stops at the plan limit', async () => {
    const before = (await call(t, adminA, 'GET', '/api/users/licences')).json();
    const permits = before.modules.find((m: { module: string }) => m.module === 'permits');
    expect(permits.used + permits.unassigned).toBe(50);

    const res = await call(t, adminA, 'POST', '/api/users/licences', { user_id: a.userId, module: 'permits' });
    expect(res.statusCode).toBe(200);
    const after = res.json().modules.find((m: { module: string }) => m.module === 'permits');
    expect(after).toEqual({ module: 'permits', used: permits.used + 1, unassigned: permits.unassigned - 1, total: 50 });
    expect((await call(t, adminA, 'GET', `/api/users/${a.userId}`)).json().licences).toContain('permits');
    expect((await call(t, readerA, 'GET', '/api/users/licences/mine')).json()).toEqual({ modules: ['permits'], is_admin: false });

    await setUserLimit(a.id, after.used);
    try {
      const full = await call(t, adminA, 'POST', '/api/users/licences', { user_id: a.adminId, module: 'permits' });
      expect(full.statusCode).toBe(403);
      expect(full.json().code).toBe('plan_limit_reached');
    } finally {
      await setUserLimit(a.id, 50);
    }
    const removed = await call(t, adminA, 'DELETE', `/api/users/licences/${a.userId}/permits`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().modules.find((m: { module: string }) => m.module === 'permits').used).toBe(permits.used);
    expect((await call(t, adminA, 'POST', '/api/users/licences', { user_id: a.userId, module: 'spaceships' })).statusCode).toBe(400);
  });

  it('refuses a licence for an inactive user', async () => {
    const id = (await invite(adminA, invitee())).json().id;
    await call(t, adminA, 'PATCH', `/api/users/${id}`, { status: 'Inactive' });
    const res = await call(t, adminA, 'POST', '/api/users/licences', { user_id: id, module: 'hira' });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toEqual(['Licences can only be given to active users.']);
    const rows = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx
        .select()
        .from(userLicences)
        .where(and(eq(userLicences.userId, id))),
    );
    expect(rows).toEqual([]);
  });
});

describe('bulk import from Excel', () => {
  it('serves a template with the expected columns', async () => {
    const res = await call(t, adminA, 'GET', '/api/users/import_template');
    expect(res.statusCode).toBe(200);
    const { headers } = await readWorkbookRows(res.rawPayload);
    expect(headers).toEqual(['email', 'full_name', 'employee_id', 'phone', 'gender', 'shift', 'role', 'sites']);
  });

  it('imports nothing when any row is wrong, and reports each row, column and problem', async () => {
    const before = await userCount(a.id);
    const file = await workbook([
      { email: 'good.one@ua.test', full_name: 'Good One', role: 'Reader', sites: 'Head Office' },
      { email: 'bad', full_name: 'Bad 1', phone: '123', role: 'Nope', sites: 'Head Office; Moon Base' },
      { email: 'good.one@ua.test', full_name: 'Twice', role: 'reader', sites: '' },
      { email: 'admin@ua.test', full_name: 'Existing', role: 'Reader', gender: 'robot', sites: '' },
      { email: 'other@ua.test', full_name: 'Site of B', role: 'Reader', sites: 'Other Plant' },
    ]);
    const res = await upload(t, adminA, '/api/users/import', 'users.xlsx', file, XLSX);
    expect(res.statusCode).toBe(400);
    const rows = res.json().rows as Array<{ row: number; field: string; message: string }>;
    const at = (row: number, field: string) => rows.find((r) => r.row === row && r.field === field)?.message;
    expect(at(3, 'email')).toBe('Enter a valid e-mail address.');
    expect(at(3, 'full_name')).toBe('Use letters only.');
    expect(at(3, 'phone')).toBe('Invalid phone number.');
    // Every column of a wrong row is checked, not only the first failure.
    expect(at(3, 'role')).toBe('No role has this name.');
    expect(at(3, 'sites')).toBe('No site has this name: Moon Base.');
    expect(at(4, 'email')).toBe('This e-mail appears more than once in the file.');
    expect(at(5, 'email')).toBe('Email already present.');
    expect(at(5, 'gender')).toBe('Use male, female or others.');
    expect(at(6, 'sites')).toBe('No site has this name: Other Plant.');
    expect(rows.some((r) => r.row === 2)).toBe(false);
    expect(res.json().fields['6.sites']).toBe('No site has this name: Other Plant.');
    expect(await userCount(a.id)).toBe(before);
    const fixed = await workbook([{ email: 'valid@ua.test', full_name: 'Valid', role: 'Nope' }]);
    const roleRes = await upload(t, adminA, '/api/users/import', 'users.xlsx', fixed, XLSX);
    expect(roleRes.json().rows).toEqual([{ row: 2, field: 'role', message: 'No role has this name.' }]);
  });

  it('invites every row in one go when all are right', async () => {
    const file = await workbook([
      {
        email: 'imp.one@ua.test',
        full_name: 'Imp One',
        employee_id: 'IMP-1',
        phone: '+44 20 7946 0101',
        gender: 'Male',
        shift: 'Second',
        role: 'reader',
        sites: 'Head Office; Plant Two',
      },
      { email: 'imp.two@ua.test', full_name: 'Imp Two', role: 'User manager', sites: '' },
    ]);
    const res = await upload(t, adminA, '/api/users/import', 'users.xlsx', file, XLSX);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ imported: 2, errors: [] });
    const list = (await call(t, adminA, 'GET', '/api/users?search=imp.one')).json().users;
    expect(list[0]).toMatchObject({ employee_id: 'IMP-1', gender: 'male', shift: 'second', role_name: 'Reader', verified: false });
    expect(list[0].site_ids).toHaveLength(2);
    expect(await activationToken(a.id, 'imp.two@ua.test')).toBeTruthy();
  });

  it('refuses the whole file when it would pass the plan’s user limit', async () => {
    const active = Number(
      (
        await inTenant(t.deps.db.app, a.id, (tx) =>
          tx
            .select({ n: sql<number>`count(*)` })
            .from(users)
            .where(eq(users.status, 'Active')),
        )
      )[0]!.n,
    );
    await setUserLimit(a.id, active + 1);
    try {
      const before = await userCount(a.id);
      const file = await workbook([
        { email: 'cap.one@ua.test', full_name: 'Cap One', role: 'Reader' },
        { email: 'cap.two@ua.test', full_name: 'Cap Two', role: 'Reader' },
      ]);
      const res = await upload(t, adminA, '/api/users/import', 'users.xlsx', file, XLSX);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('plan_limit_reached');
      expect(await userCount(a.id)).toBe(before);
    } finally {
      await setUserLimit(a.id, 50);
    }
  });

  it('refuses a file that is not a workbook or lacks columns', async () => {
    expect((await upload(t, adminA, '/api/users/import', 'users.xlsx', Buffer.from('hello'), XLSX)).json().code).toBe('bad_format');
    const res = await upload(t, adminA, '/api/users/import', 'users.xlsx', await workbook([{ email: 'x@ua.test' }], ['email']), XLSX);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toContain('full_name');
  });
});

describe('photo', () => {
  it('stores a JPEG/PNG under 500 KB, checked by content', async () => {
    const ok = await upload(t, adminA, `/api/users/${a.userId}/photo`, 'me.png', PNG, 'image/png');
    expect(ok.statusCode).toBe(200);
    const url = ok.json().photo_url as string;
    expect(url).toMatch(/^\/api\/files\//);
    expect((await call(t, readerA, 'GET', url)).statusCode).toBe(200);
    expect((await call(t, adminB, 'GET', url)).statusCode).toBe(404);
    // Replacing the photo removes the old file.
    const again = await upload(t, adminA, `/api/users/${a.userId}/photo`, 'me.png', PNG, 'image/png');
    expect((await call(t, adminA, 'GET', url)).statusCode).toBe(404);
    expect(again.json().photo_url).not.toBe(url);

    const fake = await upload(t, adminA, `/api/users/${a.userId}/photo`, 'me.png', Buffer.from('<svg></svg>'), 'image/png');
    expect(fake.statusCode).toBe(415);
    const big = await upload(
      t,
      adminA,
      `/api/users/${a.userId}/photo`,
      'big.png',
      Buffer.concat([PNG, Buffer.alloc(501 * 1024)]),
      'image/png',
    );
    expect(big.statusCode).toBe(413);
    expect((await upload(t, readerA, `/api/users/${a.userId}/photo`, 'me.png', PNG, 'image/png')).statusCode).toBe(403);
  });
});

describe('demo staff', () => {
  it('seeds realistic users once, with roles, sites, licences and one pending invitation', async () => {
    const org = await createOrg(t, 'useed');
    await addSite(org.id, 'Seed Site');
    const ids = await inTenant(t.deps.db.app, org.id, (tx) => seedDemoUsers(tx, PASSWORD));
    expect(ids).toHaveLength(5);
    expect(await inTenant(t.deps.db.app, org.id, (tx) => seedDemoUsers(tx, PASSWORD))).toEqual([]);
    const s = await signIn(t, 'useed', 'priya.nair@demo.test');
    const list = (await call(t, s, 'GET', '/api/users?per_page=50')).json().users as Array<{
      email: string;
      verified: boolean;
      site_ids: string[];
      licences: string[];
    }>;
    const carmen = list.find((u) => u.email === 'carmen.ruiz@demo.test')!;
    expect(carmen.verified).toBe(false);
    expect(list.find((u) => u.email === 'priya.nair@demo.test')!.licences).toContain('permits');
    expect(carmen.site_ids).toHaveLength(1);
  });
});

describe('form options and the permission page', () => {
  it('offers roles and active sites of the organisation only, hiding admin roles from non-admins', async () => {
    const opts = (await call(t, adminA, 'GET', '/api/users/form_options')).json();
    expect(opts.roles.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['Administrator', 'Reader']));
    expect(opts.sites.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([siteA1, siteA2]));
    expect(JSON.stringify(opts)).not.toContain(siteB);
    expect((await call(t, readerA, 'GET', '/api/users/form_options')).statusCode).toBe(403);
  });

  it('shows a user’s role matrix read-only', async () => {
    const res = await call(t, adminA, 'GET', `/api/users/${a.userId}/permissions`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.role.name).toBe('Reader');
    expect(body.matrix.find((m: { subject: string }) => m.subject === 'Incident')).toMatchObject({
      read: true,
      create: false,
      workflow: [],
    });
    expect(body.matrix.find((m: { subject: string }) => m.subject === 'User')).toMatchObject({ read: false, workflow: null });
    const admin = (await call(t, adminA, 'GET', `/api/users/${a.adminId}/permissions`)).json();
    expect(admin.matrix.find((m: { subject: string }) => m.subject === 'Permit').workflow).toEqual([
      'revoke',
      'extend',
      'close',
      'reject',
      'approve',
    ]);
    expect((await call(t, adminA, 'GET', `/api/users/${b.userId}/permissions`)).statusCode).toBe(404);
    expect((await call(t, readerA, 'GET', `/api/users/${a.userId}/permissions`)).statusCode).toBe(403);
  });
});
