import { REGISTRATION_MAX_ATTEMPTS } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestSignUpCode } from './registration-support.js';
import { REGISTRATION_LIMITS } from '../src/modules/registration/service.js';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { call, createOrg, createTestApp, nextIp, signIn, type TestApp } from './helpers.js';

let t: TestApp;
let alpha: Awaited<ReturnType<typeof createOrg>>;
const SIGNUP_PASSWORD = 'Safety#First1';

beforeAll(async () => {
  t = await createTestApp();
  alpha = await createOrg(t, 'alpha');
});
afterAll(() => t.close());

let n = 0;
/** A valid sign-up, unique per call, with any field overridden. */
function signUp(over: Record<string, unknown> = {}) {
  n += 1;
  return {
    company_name: `Acme Works ${n}`,
    full_name: 'Jane O’Neil-Smith',
    email: `jane${n}@acme-works.test`,
    phone: '+44 20 7946 0958',
    password: SIGNUP_PASSWORD,
    sub_domain: `acme-works-${n}`,
    ...over,
  };
}

const post = (url: string, payload?: unknown, ip = nextIp(), lang = 'en') =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: { 'accept-language': lang },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function count(table: string): Promise<number> {
  const { rows } = await t.deps.db.ownerPool.query(`select count(*)::int as n from ${table}`);
  return rows[0].n as number;
}

async function owner(text: string, values: unknown[] = []) {
  return (await t.deps.db.ownerPool.query(text, values)).rows;
}

/** Step 1, asserting it worked; gives the registration id and the e-mailed code. */
async function register(over: Record<string, unknown> = {}) {
  const body = signUp(over);
  const res = await post('/api/organizations', body);
  expect(res.statusCode, res.body).toBe(201);
  const code = await latestSignUpCode(t.deps.db.ownerPool, body.email);
  expect(code).toMatch(/^\d{6}$/);
  return { body, id: res.json().registration_id as string, code: code!, res: res.json() };
}

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('sign-up step 1: POST /api/organizations (spec 001 §5)', () => {
  it.each([
    ['company_name', { company_name: '  ' }, 'This field is required.'],
    ['full_name', { full_name: 'Jane 2' }, 'Use letters only.'],
    ['full_name', { full_name: 'R2-D2' }, 'Use letters only.'],
    ['full_name', { full_name: '' }, 'This field is required.'],
    ['email', { email: 'not-an-email' }, 'Enter a valid e-mail address.'],
    ['email', { email: '' }, 'This field is required.'],
    ['phone', { phone: '12345' }, 'Invalid phone number. Include the country code, e.g. +44 20 7946 0958.'],
    ['phone', { phone: '' }, 'This field is required.'],
    ['password', { password: 'short#1' }, 'The password needs at least 8 characters.'],
    ['password', { password: 'longenough1' }, 'The password needs at least one special character (such as ! # or %).'],
    ['sub_domain', { sub_domain: 'Bad_Name!' }, 'Use lower-case letters, digits and hyphens only.'],
    ['sub_domain', { sub_domain: '-acme' }, 'Use lower-case letters, digits and hyphens only.'],
    ['sub_domain', { sub_domain: 'admin' }, 'This sub-domain is reserved.'],
    ['sub_domain', { sub_domain: 'public' }, 'This sub-domain is reserved.'],
  ])('refuses a bad %s (%o) with its message and writes nothing', async (field, over, text) => {
    const before = await count('registrations');
    const res = await post('/api/organizations', signUp(over));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().fields[field]).toBe(text);
    expect(await count('registrations')).toBe(before);
  });

  it.each([
    ['a free-mail address', 'jane@gmail.com'],
    ['a free-mail address on a sub-domain of the provider', 'jane@mail.yahoo.co.uk'],
    ['a disposable address', 'jane@aabbt.com'],
  ])('refuses %s: business e-mails only', async (_, email) => {
    const before = await count('mail_outbox');
    const res = await post('/api/organizations', signUp({ email }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.email).toBe('Use your work e-mail address: free and disposable e-mail addresses are not accepted.');
    expect(await count('mail_outbox')).toBe(before);
  });

  it('answers in the caller’s language', async () => {
    const res = await post('/api/organizations', signUp({ full_name: 'Juan 3' }), nextIp(), 'es');
    expect(res.json().fields.full_name).toBe('Use solo letras.');
  });

  it('accepts names in any script with spaces, hyphens and apostrophes', async () => {
    for (const full_name of ['José Álvarez', '李小龙', 'Ayşe Yılmaz', "D'Arcy O'Brien"]) {
      const res = await post('/api/organizations', signUp({ full_name }));
      expect(res.statusCode, `${full_name}: ${res.body}`).toBe(201);
    }
  });

  it('answers an e-mail an organisation admin already uses exactly like a new one; only its mailbox hears why (issue 12)', async () => {
    const fresh = signUp();
    const taken = signUp({ email: alpha.adminEmail.toUpperCase() });
    const a = await post('/api/organizations', fresh);
    const b = await post('/api/organizations', taken);
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.statusCode).toBe(201);
    const shape = (body: Record<string, unknown>) => Object.keys(body).sort();
    expect(shape(b.json())).toEqual(shape(a.json()));
    expect(b.json().email).toBe(alpha.adminEmail);
    // The new address gets a code; the admin's gets a notice with no code, in the sign-up's language.
    expect(await latestSignUpCode(t.deps.db.ownerPool, fresh.email)).toMatch(/^\d{6}$/);
    expect(await latestSignUpCode(t.deps.db.ownerPool, alpha.adminEmail)).toBeNull();
    const [notice] = await owner(`select subject, body from mail_outbox where lower(to_address) = $1 order by created_at desc limit 1`, [
      alpha.adminEmail,
    ]);
    expect(notice.subject).toBe('Your Bulwark EHS sign-up');
    expect(notice.body).toMatch(/already administers an organisation/);
    // A resend sends the notice again, never a code; no code the sender could guess creates anything.
    await owner(`update registrations set code_sent_at = now() - interval '61 seconds' where id = $1`, [b.json().registration_id]);
    const resent = await post(`/api/registrations/${b.json().registration_id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect(await latestSignUpCode(t.deps.db.ownerPool, alpha.adminEmail)).toBeNull();
  });

  it('lets a second sign-up with the same e-mail start; the first code verified wins, the other is refused', async () => {
    const first = await register();
    const again = await post('/api/organizations', signUp({ email: first.body.email }));
    expect(again.statusCode).toBe(201);
    const secondCode = await latestSignUpCode(t.deps.db.ownerPool, first.body.email);
    expect((await post(`/api/registrations/${first.id}/verify`, { code: first.code })).statusCode).toBe(200);
    const late = await post(`/api/registrations/${again.json().registration_id}/verify`, { code: secondCode });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('email_taken');
  });

  it('refuses a sub-domain an organisation or a pending sign-up holds', async () => {
    const taken = await post('/api/organizations', signUp({ sub_domain: 'alpha' }));
    expect(taken.statusCode).toBe(400);
    expect(taken.json().fields.sub_domain).toBe('This sub-domain is already taken.');
    const first = await register();
    const held = await post('/api/organizations', signUp({ sub_domain: first.body.sub_domain }));
    expect(held.json().fields.sub_domain).toBe('This sub-domain is already taken.');
  });

  it('keeps only hashes: the password and the code are not stored as given', async () => {
    const { id, code } = await register();
    const [row] = await owner(`select password_hash, code_hash, phone, email from registrations where id = $1`, [id]);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.code_hash).not.toContain(code);
    expect(row.phone).toBe('+442079460958');
  });

  it('e-mails the code from the platform tenant’s outbox, valid 15 minutes', async () => {
    const { body, res } = await register();
    const [mail] = await owner(
      `select m.subject, m.body, o.is_platform from mail_outbox m join organizations o on o.id = m.organization_id where m.to_address = $1`,
      [body.email],
    );
    expect(mail.is_platform).toBe(true);
    expect(mail.subject).toBe('Your Bulwark EHS sign-up code');
    expect(mail.body).toContain('valid for 15 minutes');
    const minutes = (Date.parse(res.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
  });

  it('the platform tenant’s rows stay behind the wall: another organisation sees none of them', async () => {
    await register();
    const admin = await signIn(t, 'alpha', alpha.adminEmail);
    // Direct check on the app role: a transaction acting for alpha reads no registrations.
    const { inTenant } = await import('../src/platform/db/db.js');
    const { registrations } = await import('../src/modules/registration/tables.js');
    const rows = await inTenant(t.deps.db.app, alpha.id, (tx) => tx.select().from(registrations));
    expect(rows).toEqual([]);
    expect(admin.profile.organization?.sub_domain_name).toBe('alpha');
  });
});

describe('sub-domain availability', () => {
  const check = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/registrations/sub_domain_availability?${query}`, remoteAddress: nextIp() });

  it('says whether a sub-domain is free and suggests a free one near a taken one', async () => {
    expect((await check('sub_domain=brand-new')).json()).toEqual({
      sub_domain: 'brand-new',
      available: true,
      reason: null,
      suggestion: 'brand-new',
    });
    expect((await check('sub_domain=alpha')).json()).toEqual({
      sub_domain: 'alpha',
      available: false,
      reason: 'taken',
      suggestion: 'alpha-2',
    });
    expect((await check('sub_domain=www')).json()).toMatchObject({ available: false, reason: 'reserved', suggestion: 'www-ehs' });
    expect((await check('sub_domain=Not%20Valid')).json()).toMatchObject({ available: false, reason: 'format', suggestion: 'not-valid' });
  });

  it('suggests one from the company name', async () => {
    expect((await check('company_name=M%C3%BCller%20%26%20S%C3%B6hne%20GmbH')).json()).toEqual({
      sub_domain: 'muller-sohne-gmbh',
      available: true,
      reason: null,
      suggestion: 'muller-sohne-gmbh',
    });
    expect((await check('company_name=Alpha')).json()).toMatchObject({ sub_domain: 'alpha', available: false, suggestion: 'alpha-2' });
  });
});

describe('sign-up step 2: the e-mailed code (OTP)', () => {
  const verify = (id: string, code: unknown, ip = nextIp()) =>
    post(`/api/registrations/${id}/verify`, code === undefined ? {} : { code }, ip);

  it('requires the code: "OTP required"', async () => {
    const { id } = await register();
    const res = await verify(id, '');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.code).toBe('OTP required.');
    expect((await verify(id, '12ab')).json().fields.code).toBe('Enter the 6-digit code from the e-mail.');
  });

  it('refuses a wrong code with otp_invalid and counts down the attempts; after 5 even the right code is refused', async () => {
    const { id, code } = await register();
    for (let i = 1; i <= REGISTRATION_MAX_ATTEMPTS; i += 1) {
      const res = await verify(id, wrongCode(code));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('otp_invalid');
      expect(res.json().fields.code).toBe(
        i < REGISTRATION_MAX_ATTEMPTS
          ? `This code is wrong. Attempts left: ${REGISTRATION_MAX_ATTEMPTS - i}.`
          : 'Too many wrong codes. Ask for a new one.',
      );
    }
    const right = await verify(id, code);
    expect(right.statusCode).toBe(410);
    expect(right.json().code).toBe('link_expired');
    expect(right.json().fields.code).toBe('Too many wrong codes. Ask for a new one.');
    const [row] = await owner(`select completed_at from registrations where id = $1`, [id]);
    expect(row.completed_at).toBeNull();
  });

  it('refuses an expired code with link_expired', async () => {
    const { id, code } = await register();
    await owner(`update registrations set code_expires_at = now() - interval '1 second' where id = $1`, [id]);
    const res = await verify(id, code);
    expect(res.statusCode).toBe(410);
    expect(res.json()).toMatchObject({ code: 'link_expired', fields: { code: 'This code has expired. Ask for a new one.' } });
  });

  it('an unknown registration is not found', async () => {
    expect((await verify('0190a5a0-0000-7000-8000-000000000000', '123456')).statusCode).toBe(404);
    expect((await verify('not-a-uuid', '123456')).statusCode).toBe(400);
  });

  it('resends a new code after the cool-down; the old code stops working and the attempts start again', async () => {
    const { id, code, body } = await register();
    const early = await post(`/api/registrations/${id}/resend`);
    expect(early.statusCode).toBe(429);
    expect(early.json().errors[0]).toMatch(/^Please wait \d+ seconds before asking for a new code\.$/);
    await verify(id, wrongCode(code));
    await owner(`update registrations set code_sent_at = now() - interval '61 seconds' where id = $1`, [id]);
    const resent = await post(`/api/registrations/${id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const fresh = await latestSignUpCode(t.deps.db.ownerPool, body.email);
    expect(fresh).toMatch(/^\d{6}$/);
    const [row] = await owner(`select failed_attempts, resend_count from registrations where id = $1`, [id]);
    expect(row).toEqual({ failed_attempts: 0, resend_count: 1 });
    if (fresh !== code) expect((await verify(id, code)).json().code).toBe('otp_invalid');
    expect((await verify(id, fresh)).statusCode).toBe(200);
  });

  it('sends at most 5 new codes for one sign-up', async () => {
    const { id } = await register();
    for (let i = 0; i < 5; i += 1) {
      await owner(`update registrations set code_sent_at = now() - interval '61 seconds' where id = $1`, [id]);
      expect((await post(`/api/registrations/${id}/resend`)).statusCode).toBe(200);
    }
    await owner(`update registrations set code_sent_at = now() - interval '61 seconds' where id = $1`, [id]);
    const refused = await post(`/api/registrations/${id}/resend`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors[0]).toBe('No more codes can be sent for this sign-up. Please start again.');
  });

  it('the right code creates the organisation on a 14-day free trial (100 MB, 50 users) with its admin, onboarding pending', async () => {
    const { id, code, body } = await register({ company_name: 'Zeta Mining', sub_domain: 'zeta' });
    const orgsBefore = await count('organizations');
    const res = await verify(id, code);
    expect(res.statusCode, res.body).toBe(200);
    const out = res.json();
    expect(out).toMatchObject({ organization_name: 'Zeta Mining', sub_domain_name: 'zeta', email: body.email });
    expect(out.organization_url).toContain('zeta.');
    expect(await count('organizations')).toBe(orgsBefore + 1);

    const [org] = await owner(`select * from organizations where id = $1`, [out.organization_id]);
    expect(org).toMatchObject({
      name: 'Zeta Mining',
      sub_domain_name: 'zeta',
      subscription_type: 'free_trial',
      organization_status: 'Active',
      storage_quota_bytes: String(100 * 1024 * 1024),
      user_limit: 50,
      onboarding_completed_at: null,
      is_platform: false,
    });
    const days = (new Date(org.trial_ends_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.99);
    expect(days).toBeLessThanOrEqual(14);

    // The admin signs in at the new address with the password chosen at sign-up, holds every right and
    // is sent to onboarding.
    const admin = await signIn(t, 'zeta', body.email, SIGNUP_PASSWORD);
    expect(admin.profile.user).toMatchObject({ is_admin: true, full_name: 'Jane O’Neil-Smith', role_name: 'Administrator' });
    expect(admin.profile.organization?.onboarding_pending).toBe(true);
    expect(admin.profile.rules.find((r) => r.subject === 'Site')?.actions).toEqual(['read', 'create', 'update', 'delete']);
    const [registration] = await owner(`select completed_at, created_organization_id from registrations where id = $1`, [id]);
    expect(registration.completed_at).not.toBeNull();
    expect(registration.created_organization_id).toBe(out.organization_id);

    // The same code cannot create a second organisation.
    const again = await verify(id, code);
    expect(again.statusCode).toBe(409);
    expect(await count('organizations')).toBe(orgsBefore + 1);
    // The address is now an admin's: a new sign-up with it is answered as any other, and mailed no code.
    expect((await post('/api/organizations', signUp({ email: body.email }))).statusCode).toBe(201);
    expect(await latestSignUpCode(t.deps.db.ownerPool, body.email)).toBeNull();
  });

  it('keeps the sign-up language for the admin account', async () => {
    const body = signUp();
    const res = await post('/api/organizations', body, nextIp(), 'tr');
    const code = await latestSignUpCode(t.deps.db.ownerPool, body.email);
    const [mail] = await owner(`select subject from mail_outbox where to_address = $1`, [body.email]);
    expect(mail.subject).toBe('Bulwark EHS kayıt kodunuz');
    expect((await verify(res.json().registration_id, code)).statusCode).toBe(200);
    const admin = await signIn(t, body.sub_domain, body.email, SIGNUP_PASSWORD);
    expect(admin.profile.user.locale).toBe('tr');
  });

  it('is all or nothing: when the sub-domain was taken meanwhile, nothing is created and the sign-up stays open', async () => {
    const { id, code, body } = await register();
    await createOrganizationService(t.deps.db.app).createOrganization({
      subDomain: body.sub_domain,
      name: 'Faster Ltd',
      admin: { email: 'boss@faster.test', fullName: 'Boss', password: SIGNUP_PASSWORD },
    });
    const orgs = await count('organizations');
    const users = await count('users');
    const roles = await count('roles');
    const res = await verify(id, code);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.sub_domain).toBe('This sub-domain is already taken.');
    expect(await count('organizations')).toBe(orgs);
    expect(await count('users')).toBe(users);
    expect(await count('roles')).toBe(roles);
    const [row] = await owner(`select completed_at from registrations where id = $1`, [id]);
    expect(row.completed_at).toBeNull();
  });

  it('is all or nothing: when the e-mail became an admin’s meanwhile, nothing is created', async () => {
    const { id, code, body } = await register();
    await createOrganizationService(t.deps.db.app).createOrganization({
      subDomain: `other-${n}`,
      name: 'Other Ltd',
      admin: { email: body.email, fullName: 'Jane', password: SIGNUP_PASSWORD },
    });
    const orgs = await count('organizations');
    const res = await verify(id, code);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('email_taken');
    expect(await count('organizations')).toBe(orgs);
  });
});

describe('rate limits per address on the public sign-up routes', () => {
  const verify = (id: string, code: string, ip: string) => post(`/api/registrations/${id}/verify`, { code }, ip);

  it('refuses more than the allowed sign-ups from one address within the hour', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < REGISTRATION_LIMITS.register.max; i += 1) {
      const res = await post('/api/organizations', signUp({ full_name: 'Bad 1' }), ip);
      expect(res.statusCode).toBe(400);
    }
    const refused = await post('/api/organizations', signUp(), ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('rate_limited');
    expect((await post('/api/organizations', signUp(), '203.0.113.8')).statusCode).toBe(201);
  });

  it('refuses more than the allowed code checks from one address', async () => {
    const ip = '203.0.113.9';
    const { id } = await register();
    for (let i = 0; i < REGISTRATION_LIMITS.verify.max; i += 1) expect((await verify(id, 'abc', ip)).statusCode).toBe(400);
    const refused = await verify(id, '000000', ip);
    expect(refused.statusCode).toBe(429);
  });

  it('limits sign-ups per e-mail address from any address', async () => {
    const email = `flood${n}@flood-corp.test`;
    const answers: number[] = [];
    for (let i = 0; i <= REGISTRATION_LIMITS.registerPerEmail.max; i += 1) {
      answers.push((await post('/api/organizations', signUp({ email }))).statusCode);
    }
    // Each is answered as a new sign-up (the mailbox gets a code per sign-up) until the limit.
    expect(answers).toEqual([...Array(REGISTRATION_LIMITS.registerPerEmail.max).fill(201), 429]);
  });
});

describe('OpenAPI', () => {
  it('documents the sign-up, verify, resend, availability, plan and extension-request calls', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const path of [
      '/api/organizations',
      '/api/registrations/{registration_id}/verify',
      '/api/registrations/{registration_id}/resend',
      '/api/registrations/sub_domain_availability',
      '/api/v1/plan',
      '/api/organizations/{organization_id}/org_free_trial_extend_requests',
      '/api/v1/org_free_trial_extend_requests',
      '/api/v1/org_free_trial_extend_requests/{id}/approve',
      '/api/v1/org_free_trial_extend_requests/{id}/reject',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/organizations'].post).toBeDefined();
  });

  it('a signed-in call is not needed for sign-up but the profile is unchanged for existing users', async () => {
    const admin = await signIn(t, 'alpha', alpha.adminEmail);
    expect((await call(t, admin, 'GET', '/api/users/user_profile')).statusCode).toBe(200);
  });
});
