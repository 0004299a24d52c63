import { translate } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { readWorkbookRows } from '../src/platform/export/excel.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { seedDemoSites } from '../src/modules/sites/seed.js';
import { listUserSiteIds, setUserSites, siteManpowerFor } from '../src/modules/sites/service.js';
import { call, createOrg, createTestApp, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let userA: Session;
let adminB: Session;
let siteReaderA: Session;
let siteReaderId: string;

const en = (key: string) => translate('en', key);

function siteBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'North Plant',
    short_name: 'North',
    site_code: 'NP-1',
    time_zone: 'Europe/London',
    head_of_safety_id: a.adminId,
    emergency_phone: '020 7946 0958',
    emergency_email: 'Safety@North.test',
    address: '1 Dock Road',
    city: 'London',
    state: 'Greater London',
    country: 'GB',
    zip: 'E16 2QU',
    latitude: 51.5,
    longitude: 0.02,
    ...overrides,
  };
}

async function siteCount(orgId: string): Promise<number> {
  const rows = await inTenant(t.deps.db.app, orgId, (tx) => tx.execute(sql`select count(*)::int as n from sites`));
  return (rows.rows[0] as { n: number }).n;
}

async function createSiteAs(s: Session, body: Record<string, unknown>) {
  const res = await call(t, s, 'POST', '/api/sites', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; [k: string]: unknown };
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'sitea');
  b = await createOrg(t, 'siteb');
  // A role that reads sites and nothing else.
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${a.id}, true)`);
    await createRole(tx, 'Site reader', [
      {
        name: 'Site',
        rAdd: false,
        rEdit: false,
        rView: true,
        rDestroy: false,
        isRevoke: false,
        isExtend: false,
        isClose: false,
        isReject: false,
        isApprove: false,
      },
    ]);
  });
  const reader = await createOrganizationService(t.deps.db.app).createUser('sitea', {
    email: 'reader@sitea.test',
    fullName: 'Rita Reader',
    password: PASSWORD,
    roleName: 'Site reader',
  });
  siteReaderId = reader.id;
  adminA = await signIn(t, 'sitea', a.adminEmail);
  userA = await signIn(t, 'sitea', a.userEmail);
  adminB = await signIn(t, 'siteb', b.adminEmail);
  siteReaderA = await signIn(t, 'sitea', 'reader@sitea.test');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('POST /api/sites: validation (spec 001 §5)', () => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['name missing', { name: '' }, 'name', 'validation.required'],
    ['name with digits', { name: 'Plant 7' }, 'name', 'sites.validation.nameLetters'],
    ['name with symbols', { name: 'Plant@Home' }, 'name', 'sites.validation.nameLetters'],
    ['name too long', { name: 'A'.repeat(101) }, 'name', 'validation.tooLong'],
    ['unknown time zone', { time_zone: 'Mars/Olympus' }, 'time_zone', 'sites.validation.timeZone'],
    ['time zone missing', { time_zone: '' }, 'time_zone', 'sites.validation.timeZone'],
    ['head of safety missing', { head_of_safety_id: undefined }, 'head_of_safety_id', 'sites.validation.headOfSafety'],
    ['invalid phone', { emergency_phone: '12345' }, 'emergency_phone', 'sites.validation.phone'],
    ['phone of another country', { emergency_phone: '0412 345 678' }, 'emergency_phone', 'sites.validation.phone'],
    ['phone missing', { emergency_phone: '' }, 'emergency_phone', 'validation.required'],
    ['bad e-mail', { emergency_email: 'not-an-email' }, 'emergency_email', 'validation.email'],
    ['address missing', { address: ' ' }, 'address', 'validation.required'],
    ['city missing', { city: '' }, 'city', 'validation.required'],
    ['state missing', { state: '' }, 'state', 'validation.required'],
    ['country unknown', { country: 'XX' }, 'country', 'sites.validation.country'],
    ['zip missing', { zip: '' }, 'zip', 'validation.required'],
    ['zip malformed', { zip: '#!' }, 'zip', 'sites.validation.zip'],
    ['latitude out of range', { latitude: 90.5 }, 'latitude', 'sites.validation.latitude'],
    ['longitude out of range', { longitude: -181 }, 'longitude', 'sites.validation.longitude'],
    ['latitude not a number', { latitude: 'north' }, 'latitude', 'sites.validation.latitude'],
    ['site code with spaces', { site_code: 'N P' }, 'site_code', 'sites.validation.siteCode'],
    ['short name too long', { short_name: 'x'.repeat(21) }, 'short_name', 'validation.tooLong'],
  ];

  it.each(cases)('%s: 400 with the field message, nothing written', async (_label, change, field, key) => {
    const before = await siteCount(a.id);
    const res = await call(t, adminA, 'POST', '/api/sites', siteBody(change));
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { code: string; fields: Record<string, string> };
    expect(body.code).toBe('validation_failed');
    expect(body.fields[field]).toBe(en(key));
    expect(await siteCount(a.id)).toBe(before);
  });

  it('translates the field message by Accept-Language', async () => {
    const res = await call(t, adminA, 'POST', '/api/sites', siteBody({ emergency_phone: '1' }), { 'accept-language': 'es' });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { fields: Record<string, string> }).fields['emergency_phone']).toBe(translate('es', 'sites.validation.phone'));
  });

  it('refuses a head of safety who is not an active user of the organisation', async () => {
    const res = await call(t, adminA, 'POST', '/api/sites', siteBody({ head_of_safety_id: b.adminId, head_of_site_id: b.userId }));
    expect(res.statusCode).toBe(400);
    const fields = (res.json() as { fields: Record<string, string> }).fields;
    expect(fields['head_of_safety_id']).toBe(en('sites.validation.userUnknown'));
    expect(fields['head_of_site_id']).toBe(en('sites.validation.userUnknown'));
  });
});

describe('sites: happy path, uniqueness, deactivation', () => {
  let siteId: string;

  it('creates a site with the phone in international form and the heads named', async () => {
    const site = await createSiteAs(adminA, siteBody({ head_of_site_id: a.userId }));
    siteId = site.id;
    expect(site).toMatchObject({
      name: 'North Plant',
      short_name: 'North',
      site_code: 'NP-1',
      time_zone: 'Europe/London',
      emergency_phone: '+442079460958',
      emergency_email: 'safety@north.test',
      country: 'GB',
      is_active: true,
      latitude: 51.5,
    });
    expect((site['head_of_safety'] as { id: string }).id).toBe(a.adminId);
    expect((site['head_of_site'] as { full_name: string }).full_name).toBe('User');
    const get = await call(t, adminA, 'GET', `/api/sites/${siteId}`);
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual(site);
  });

  it('accepts an alias time zone and empty optional fields', async () => {
    const site = await createSiteAs(
      adminA,
      siteBody({
        name: 'Mumbai Works',
        site_code: '',
        short_name: '',
        emergency_email: '',
        latitude: null,
        longitude: null,
        time_zone: 'Asia/Kolkata',
        country: 'IN',
        emergency_phone: '022 2202 2222',
        zip: '400001',
        head_of_site_id: null,
      }),
    );
    expect(site).toMatchObject({
      site_code: null,
      short_name: null,
      emergency_email: null,
      latitude: null,
      head_of_site: null,
      emergency_phone: '+912222022222',
    });
  });

  it('refuses a second site with the same name or ID, ignoring case (409)', async () => {
    const byName = await call(t, adminA, 'POST', '/api/sites', siteBody({ name: 'north plant', site_code: 'OTHER' }));
    expect(byName.statusCode).toBe(409);
    expect((byName.json() as { fields: Record<string, string> }).fields['name']).toBe(en('sites.validation.nameTaken'));
    const byCode = await call(t, adminA, 'POST', '/api/sites', siteBody({ name: 'South Plant', site_code: 'np-1' }));
    expect(byCode.statusCode).toBe(409);
    expect((byCode.json() as { fields: Record<string, string> }).fields['site_code']).toBe(en('sites.validation.codeTaken'));
  });

  it('the same name is free in another organisation', async () => {
    await createSiteAs(adminB, siteBody({ head_of_safety_id: b.adminId }));
  });

  it('PATCH changes a subset and checks the merged whole', async () => {
    const ok = await call(t, adminA, 'PATCH', `/api/sites/${siteId}`, { city: 'Greenwich', head_of_site_id: null });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ city: 'Greenwich', head_of_site: null, name: 'North Plant' });
    // A local number is read in the stored country (GB): an Australian mobile is not a British number.
    const bad = await call(t, adminA, 'PATCH', `/api/sites/${siteId}`, { emergency_phone: '0412 345 678' });
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { fields: Record<string, string> }).fields['emergency_phone']).toBe(en('sites.validation.phone'));
    const badName = await call(t, adminA, 'PATCH', `/api/sites/${siteId}`, { name: 'Plant 9' });
    expect(badName.statusCode).toBe(400);
    const empty = await call(t, adminA, 'PATCH', `/api/sites/${siteId}`, {});
    expect(empty.statusCode).toBe(400);
    const taken = await call(t, adminA, 'PATCH', `/api/sites/${siteId}`, { name: 'MUMBAI WORKS' });
    expect(taken.statusCode).toBe(409);
    const still = await call(t, adminA, 'GET', `/api/sites/${siteId}`);
    expect(still.json()).toMatchObject({ country: 'GB', name: 'North Plant', city: 'Greenwich', emergency_phone: '+442079460958' });
  });

  it('records the change history', async () => {
    const rows = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.execute(sql`select action, changes from audit_log where entity = 'Site' and entity_id = ${siteId} order by created_at`),
    );
    const actions = rows.rows.map((r) => (r as { action: string }).action);
    expect(actions).toEqual(['create', 'update']);
    expect((rows.rows[1] as { changes: Record<string, unknown> }).changes['city']).toEqual({ from: 'London', to: 'Greenwich' });
  });

  it('deactivates and activates instead of deleting', async () => {
    const off = await call(t, adminA, 'PATCH', `/api/sites/${siteId}`, { is_active: false });
    expect(off.statusCode).toBe(200);
    expect((off.json() as { is_active: boolean }).is_active).toBe(false);
    const inactive = await call(t, adminA, 'GET', '/api/sites?active=inactive');
    expect((inactive.json() as { sites: Array<{ id: string }> }).sites.map((s) => s.id)).toEqual([siteId]);
    const pickers = await call(t, adminA, 'GET', '/api/sites/site_full_name');
    expect((pickers.json() as { sites: Array<{ site_id: string }> }).sites.some((s) => s.site_id === siteId)).toBe(false);
    const on = await call(t, adminA, 'PATCH', `/api/sites/${siteId}`, { is_active: true });
    expect((on.json() as { is_active: boolean }).is_active).toBe(true);
    const del = await call(t, adminA, 'DELETE', `/api/sites/${siteId}`);
    expect(del.statusCode).toBe(404);
  });
});

describe('GET /api/sites: list, search, pagination, filter, export', () => {
  beforeAll(async () => {
    for (const name of ['Alpha Depot', 'Bravo Depot', 'Charlie Yard']) {
      await createSiteAs(adminA, siteBody({ name, site_code: null, city: name.includes('Yard') ? 'Leeds' : 'York' }));
    }
  });

  it('pages by name with totals', async () => {
    const res = await call(t, adminA, 'GET', '/api/sites?per_page=2&page=1');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { sites: Array<{ name: string }>; pagination: { total: number; total_pages: number; page: number } };
    expect(body.sites.map((s) => s.name)).toEqual(['Alpha Depot', 'Bravo Depot']);
    expect(body.pagination).toMatchObject({ total: 5, total_pages: 3, page: 1 });
    const page3 = await call(t, adminA, 'GET', '/api/sites?per_page=2&page=3');
    expect((page3.json() as { sites: Array<{ name: string }> }).sites.map((s) => s.name)).toEqual(['North Plant']);
  });

  it('searches name and city, literally', async () => {
    const depot = await call(t, adminA, 'GET', '/api/sites?search=depot');
    expect((depot.json() as { sites: unknown[] }).sites).toHaveLength(2);
    const leeds = await call(t, adminA, 'GET', '/api/sites?search=LEEDS');
    expect((leeds.json() as { sites: Array<{ name: string }> }).sites.map((s) => s.name)).toEqual(['Charlie Yard']);
    const pct = await call(t, adminA, 'GET', '/api/sites?search=%25');
    expect((pct.json() as { sites: unknown[] }).sites).toHaveLength(0);
  });

  it('refuses a bad filter or page', async () => {
    expect((await call(t, adminA, 'GET', '/api/sites?active=maybe')).statusCode).toBe(400);
    expect((await call(t, adminA, 'GET', '/api/sites?page=0')).statusCode).toBe(400);
  });

  it('exports the filtered list as an Excel workbook with translated headers', async () => {
    const res = await call(t, adminA, 'GET', '/api/sites?export_to_excel=true&search=depot', undefined, { 'accept-language': 'es' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const { headers, rows } = await readWorkbookRows(res.rawPayload);
    expect(headers[0]).toBe(translate('es', 'sites.fields.name'));
    expect(rows.map((r) => r.values[headers[0]!])).toEqual(['Alpha Depot', 'Bravo Depot']);
  });
});

describe('divisions, departments and units', () => {
  let siteId: string;
  let divisionId: string;
  let departmentId: string;
  let unitId: string;

  beforeAll(async () => {
    siteId = (await createSiteAs(adminA, siteBody({ name: 'Tree Works', site_code: 'TREE' }))).id;
  });

  const post = (body: Record<string, unknown>, s: Session = adminA, id = siteId) => call(t, s, 'POST', `/api/sites/${id}/divisions`, body);

  it('builds the three levels from the parent', async () => {
    const d = await post({ name: 'Production', head_id: a.adminId, supervisor_id: a.userId });
    expect(d.statusCode, d.body).toBe(201);
    expect(d.json()).toMatchObject({ level: 'division', parent_id: null });
    divisionId = (d.json() as { id: string }).id;
    const dep = await post({ name: 'Assembly', parent_id: divisionId });
    expect(dep.json()).toMatchObject({ level: 'department', parent_id: divisionId });
    departmentId = (dep.json() as { id: string }).id;
    const u = await post({ name: 'Line 1', parent_id: departmentId });
    expect(u.json()).toMatchObject({ level: 'unit', parent_id: departmentId });
    unitId = (u.json() as { id: string }).id;
    await post({ name: 'Maintenance' });

    const tree = await call(t, adminA, 'GET', `/api/sites/${siteId}/divisions`);
    expect(tree.statusCode).toBe(200);
    const body = tree.json() as {
      site: { name: string };
      divisions: Array<{
        name: string;
        head: { id: string } | null;
        supervisor: { id: string } | null;
        children: Array<{ name: string; children: Array<{ name: string }> }>;
      }>;
    };
    expect(body.site.name).toBe('Tree Works');
    expect(body.divisions.map((x) => x.name)).toEqual(['Maintenance', 'Production']);
    const prod = body.divisions[1]!;
    expect(prod.head?.id).toBe(a.adminId);
    expect(prod.supervisor?.id).toBe(a.userId);
    expect(prod.children[0]!.name).toBe('Assembly');
    expect(prod.children[0]!.children[0]!.name).toBe('Line 1');
  });

  it('refuses a child under a unit, a parent of another site, and a missing name', async () => {
    const under = await post({ name: 'Too Deep', parent_id: unitId });
    expect(under.statusCode).toBe(400);
    expect((under.json() as { fields: Record<string, string> }).fields['parent_id']).toBe(en('sites.validation.unitHasNoChildren'));
    const other = await createSiteAs(adminA, siteBody({ name: 'Other Works', site_code: 'OTHERW' }));
    const foreign = await post({ name: 'Wrong', parent_id: divisionId }, adminA, other.id);
    expect(foreign.statusCode).toBe(400);
    expect((foreign.json() as { fields: Record<string, string> }).fields['parent_id']).toBe(en('sites.validation.parentUnknown'));
    const blank = await post({ name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect((blank.json() as { fields: Record<string, string> }).fields['name']).toBe(en('validation.required'));
    const badHead = await post({ name: 'Quality', head_id: b.adminId });
    expect(badHead.statusCode).toBe(400);
    expect((badHead.json() as { fields: Record<string, string> }).fields['head_id']).toBe(en('sites.validation.userUnknown'));
  });

  it('names are unique among siblings, ignoring case, but may repeat elsewhere', async () => {
    const dup = await post({ name: 'PRODUCTION' });
    expect(dup.statusCode).toBe(409);
    expect((dup.json() as { fields: Record<string, string> }).fields['name']).toBe(en('sites.validation.nodeNameTaken'));
    const dupDep = await post({ name: 'assembly', parent_id: divisionId });
    expect(dupDep.statusCode).toBe(409);
    // The same name under another parent is fine.
    const elsewhere = await post({ name: 'Assembly' });
    expect(elsewhere.statusCode).toBe(201);
  });

  it('renames and reassigns, refusing a sibling name', async () => {
    const ok = await call(t, adminA, 'PATCH', `/api/sites/${siteId}/divisions/${departmentId}`, {
      name: 'Final Assembly',
      head_id: a.userId,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ name: 'Final Assembly' });
    const clash = await call(t, adminA, 'PATCH', `/api/sites/${siteId}/divisions/${divisionId}`, { name: 'maintenance' });
    expect(clash.statusCode).toBe(409);
    const cleared = await call(t, adminA, 'PATCH', `/api/sites/${siteId}/divisions/${divisionId}`, { supervisor_id: null });
    expect(cleared.statusCode).toBe(200);
    const tree = (await call(t, adminA, 'GET', `/api/sites/${siteId}/divisions`)).json() as {
      divisions: Array<{ name: string; head: unknown; supervisor: unknown; children: Array<{ name: string; head: { id: string } }> }>;
    };
    const prod = tree.divisions.find((d) => d.name === 'Production')!;
    expect(prod.supervisor).toBeNull();
    expect(prod.head).not.toBeNull();
    expect(prod.children[0]!.name).toBe('Final Assembly');
    expect(prod.children[0]!.head.id).toBe(a.userId);
  });

  it('gives full names for pickers', async () => {
    const res = await call(t, userA, 'GET', '/api/sites/site_full_name');
    expect(res.statusCode).toBe(200);
    const names = (res.json() as { sites: Array<{ full_name: string; level: string; unit_id: string | null }> }).sites;
    expect(names.find((n) => n.unit_id === unitId)).toMatchObject({
      full_name: 'Tree Works / Production / Final Assembly / Line 1',
      level: 'unit',
    });
    expect(names.filter((n) => n.full_name.startsWith('Tree Works')).map((n) => n.full_name)).toEqual([
      'Tree Works',
      'Tree Works / Assembly',
      'Tree Works / Maintenance',
      'Tree Works / Production',
      'Tree Works / Production / Final Assembly',
      'Tree Works / Production / Final Assembly / Line 1',
    ]);
  });

  it('deletes a node with everything under it', async () => {
    const res = await call(t, adminA, 'DELETE', `/api/sites/${siteId}/divisions/${divisionId}`);
    expect(res.statusCode).toBe(200);
    const tree = (await call(t, adminA, 'GET', `/api/sites/${siteId}/divisions`)).json() as { divisions: Array<{ name: string }> };
    expect(tree.divisions.map((d) => d.name)).toEqual(['Assembly', 'Maintenance']);
    const count = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.execute(sql`select count(*)::int as n from site_nodes where id in (${departmentId}, ${unitId})`),
    );
    expect((count.rows[0] as { n: number }).n).toBe(0);
    expect((await call(t, adminA, 'DELETE', `/api/sites/${siteId}/divisions/${divisionId}`)).statusCode).toBe(404);
  });

  it('the database refuses a department directly under a site', async () => {
    await expect(
      inTenant(t.deps.db.app, a.id, (tx) =>
        tx.execute(sql`insert into site_nodes (site_id, level, name) values (${siteId}, 'department', 'Orphan')`),
      ),
    ).rejects.toThrow();
  });
});

describe('rights', () => {
  let siteId: string;
  beforeAll(async () => {
    siteId = (await createSiteAs(adminA, siteBody({ name: 'Rights Works', site_code: 'RW' }))).id;
  });

  it('a user without Site rights is refused every site screen call', async () => {
    for (const [method, url, body] of [
      ['GET', '/api/sites'],
      ['GET', `/api/sites/${siteId}`],
      ['POST', '/api/sites', siteBody({ name: 'Nope' })],
      ['PATCH', `/api/sites/${siteId}`, { city: 'X' }],
      ['GET', `/api/sites/${siteId}/divisions`],
      ['POST', `/api/sites/${siteId}/divisions`, { name: 'X' }],
      ['GET', '/api/sites/user_options'],
      ['GET', `/api/organizations/${a.id}/site_data`],
      ['GET', '/api/sites/manpower?year=2024'],
    ] as const) {
      const res = await call(t, userA, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('Site read alone reads but cannot create, change, or touch manpower', async () => {
    expect((await call(t, siteReaderA, 'GET', '/api/sites')).statusCode).toBe(200);
    expect((await call(t, siteReaderA, 'GET', `/api/sites/${siteId}`)).statusCode).toBe(200);
    expect((await call(t, siteReaderA, 'GET', `/api/sites/${siteId}/divisions`)).statusCode).toBe(200);
    expect((await call(t, siteReaderA, 'POST', '/api/sites', siteBody({ name: 'Nope' }))).statusCode).toBe(403);
    expect((await call(t, siteReaderA, 'PATCH', `/api/sites/${siteId}`, { is_active: false })).statusCode).toBe(403);
    expect((await call(t, siteReaderA, 'POST', `/api/sites/${siteId}/divisions`, { name: 'X' })).statusCode).toBe(403);
    expect((await call(t, siteReaderA, 'GET', '/api/sites/manpower?year=2024')).statusCode).toBe(403);
    expect(
      (await call(t, siteReaderA, 'PUT', '/api/sites/manpower', { year: 2024, entries: [{ site_id: siteId, month: 1, total: 5 }] }))
        .statusCode,
    ).toBe(403);
  });

  it('rights are checked before the body: an invalid body from a refused user is 403', async () => {
    expect((await call(t, siteReaderA, 'POST', '/api/sites', {})).statusCode).toBe(403);
  });

  it('signed-out callers get 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/sites', headers: { 'x-tenant': 'sitea' } });
    expect(res.statusCode).toBe(401);
  });

  it('exhausted storage blocks create and update but not reading', async () => {
    await t.deps.db.owner.execute(sql`update organizations set storage_used_bytes = storage_quota_bytes where id = ${a.id}`);
    try {
      expect((await call(t, adminA, 'POST', '/api/sites', siteBody({ name: 'Full Works', site_code: 'FULL' }))).statusCode).toBe(403);
      expect((await call(t, adminA, 'PATCH', `/api/sites/${siteId}`, { city: 'Hull' })).statusCode).toBe(403);
      expect((await call(t, adminA, 'GET', `/api/sites/${siteId}`)).statusCode).toBe(200);
    } finally {
      await t.deps.db.owner.execute(sql`update organizations set storage_used_bytes = 0 where id = ${a.id}`);
    }
  });
});

describe('tenant isolation', () => {
  let siteA: string;
  let siteB: string;
  let nodeB: string;

  beforeAll(async () => {
    siteA = (await createSiteAs(adminA, siteBody({ name: 'Wall Works', site_code: 'WALL' }))).id;
    siteB = (await createSiteAs(adminB, siteBody({ name: 'Hidden Works', site_code: 'HID', head_of_safety_id: b.adminId }))).id;
    const n = await call(t, adminB, 'POST', `/api/sites/${siteB}/divisions`, { name: 'Secret Division' });
    nodeB = (n.json() as { id: string }).id;
  });

  it("organisation B's site and nodes are 404 to A on every call", async () => {
    for (const [method, url, body] of [
      ['GET', `/api/sites/${siteB}`],
      ['PATCH', `/api/sites/${siteB}`, { city: 'Stolen' }],
      ['PATCH', `/api/sites/${siteB}`, { is_active: false }],
      ['GET', `/api/sites/${siteB}/divisions`],
      ['POST', `/api/sites/${siteB}/divisions`, { name: 'Intruder' }],
      ['PATCH', `/api/sites/${siteB}/divisions/${nodeB}`, { name: 'Renamed' }],
      ['DELETE', `/api/sites/${siteB}/divisions/${nodeB}`],
      ['PATCH', `/api/sites/${siteA}/divisions/${nodeB}`, { name: 'Renamed' }],
      ['DELETE', `/api/sites/${siteA}/divisions/${nodeB}`],
      ['PUT', '/api/sites/manpower', { year: 2024, entries: [{ site_id: siteB, month: 1, total: 1 }] }],
      ['GET', `/api/organizations/${b.id}/site_data`],
    ] as const) {
      const res = await call(t, adminA, method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    const still = await call(t, adminB, 'GET', `/api/sites/${siteB}/divisions`);
    expect(still.json()).toMatchObject({ site: { name: 'Hidden Works', is_active: true }, divisions: [{ name: 'Secret Division' }] });
  });

  it("and A's site is 404 to B", async () => {
    expect((await call(t, adminB, 'GET', `/api/sites/${siteA}`)).statusCode).toBe(404);
    expect((await call(t, adminB, 'PATCH', `/api/sites/${siteA}`, { city: 'X' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'GET', `/api/organizations/${a.id}/site_data`)).statusCode).toBe(404);
  });

  it("lists, pickers and heads of safety never show another organisation's rows", async () => {
    const list = (await call(t, adminA, 'GET', '/api/sites?per_page=200')).json() as { sites: Array<{ id: string; name: string }> };
    expect(list.sites.some((s) => s.id === siteB)).toBe(false);
    const names = (await call(t, adminA, 'GET', '/api/sites/site_full_name')).json() as {
      sites: Array<{ site_id: string; full_name: string }>;
    };
    expect(names.sites.some((s) => s.site_id === siteB || s.full_name.includes('Secret'))).toBe(false);
    const heads = (await call(t, adminA, 'GET', '/api/sites/all_site_head_of_safety')).json() as {
      heads_of_safety: Array<{ site_id: string; user: { id: string } }>;
    };
    expect(heads.heads_of_safety.some((h) => h.site_id === siteB || h.user.id === b.adminId)).toBe(false);
    const users = (await call(t, adminA, 'GET', '/api/sites/user_options')).json() as { users: Array<{ id: string }> };
    expect(users.users.some((u) => u.id === b.adminId || u.id === b.userId)).toBe(false);
    const data = (await call(t, adminA, 'GET', `/api/organizations/${a.id}/site_data`)).json() as { sites: Array<{ id: string }> };
    expect(data.sites.some((s) => s.id === siteB)).toBe(false);
    expect(data.sites.some((s) => s.id === siteA)).toBe(true);
  });

  it("setUserSites refuses another organisation's site", async () => {
    await expect(inTenant(t.deps.db.app, a.id, (tx) => setUserSites(tx, a.userId, [siteA, siteB]))).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect(await inTenant(t.deps.db.app, a.id, (tx) => listUserSiteIds(tx, a.userId))).toEqual([]);
  });
});

describe("site data, heads of safety and the signed-in user's sites", () => {
  let one: string;
  let two: string;
  let off: string;

  beforeAll(async () => {
    one = (await createSiteAs(adminA, siteBody({ name: 'Member One', site_code: 'M1' }))).id;
    two = (await createSiteAs(adminA, siteBody({ name: 'Member Two', site_code: 'M2', head_of_safety_id: siteReaderId }))).id;
    off = (await createSiteAs(adminA, siteBody({ name: 'Member Off', site_code: 'M3' }))).id;
    await call(t, adminA, 'PATCH', `/api/sites/${off}`, { is_active: false });
    await call(t, adminA, 'POST', `/api/sites/${one}/divisions`, { name: 'Ops' });
  });

  it('a user sees the active sites they belong to; an admin sees every active site', async () => {
    await inTenant(t.deps.db.app, a.id, (tx) => setUserSites(tx, a.userId, [two, off, one, one]));
    expect(await inTenant(t.deps.db.app, a.id, (tx) => listUserSiteIds(tx, a.userId))).toEqual([off, one, two]);
    const mine = await call(t, userA, 'GET', '/api/v3/sites/active_sites_of_user');
    expect(mine.statusCode).toBe(200);
    expect((mine.json() as { sites: Array<{ id: string }> }).sites.map((s) => s.id)).toEqual([one, two]);
    const adminSites = (await call(t, adminA, 'GET', '/api/v3/sites/active_sites_of_user')).json() as { sites: Array<{ id: string }> };
    expect(adminSites.sites.map((s) => s.id)).toEqual(expect.arrayContaining([one, two]));
    expect(adminSites.sites.map((s) => s.id)).not.toContain(off);
    await inTenant(t.deps.db.app, a.id, (tx) => setUserSites(tx, a.userId, []));
    expect((await call(t, userA, 'GET', '/api/v3/sites/active_sites_of_user')).json()).toEqual({ sites: [] });
  });

  it('lists the head of safety of each active site, for whoever may read sites (issue 12: staff names need a right)', async () => {
    expect((await call(t, userA, 'GET', '/api/sites/all_site_head_of_safety')).statusCode).toBe(403);
    const res = await call(t, siteReaderA, 'GET', '/api/sites/all_site_head_of_safety');
    expect(res.statusCode).toBe(200);
    const heads = (res.json() as { heads_of_safety: Array<{ site_id: string; user: { id: string; full_name: string } }> }).heads_of_safety;
    expect(heads.find((h) => h.site_id === two)?.user).toMatchObject({ id: siteReaderId, full_name: 'Rita Reader' });
    expect(heads.some((h) => h.site_id === off)).toBe(false);
  });

  it("site_data gives the organisation's sites with their trees", async () => {
    const res = await call(t, siteReaderA, 'GET', `/api/organizations/${a.id}/site_data`);
    expect(res.statusCode).toBe(200);
    const s = (res.json() as { sites: Array<{ id: string; divisions: Array<{ name: string }> }> }).sites.find((x) => x.id === one);
    expect(s?.divisions.map((d) => d.name)).toEqual(['Ops']);
  });

  it('user options search active users', async () => {
    const res = await call(t, siteReaderA, 'GET', '/api/sites/user_options?search=rita');
    expect((res.json() as { users: Array<{ id: string }> }).users.map((u) => u.id)).toEqual([siteReaderId]);
  });
});

describe('manpower (admin only, default 100)', () => {
  let m1: string;
  let m2: string;
  beforeAll(async () => {
    m1 = (await createSiteAs(adminB, siteBody({ name: 'Power One', site_code: 'P1', head_of_safety_id: b.adminId }))).id;
    m2 = (await createSiteAs(adminB, siteBody({ name: 'Power Two', site_code: 'P2', head_of_safety_id: b.adminId }))).id;
  });

  it('unset months are 100 and the year sums to 1200', async () => {
    const res = await call(t, adminB, 'GET', '/api/sites/manpower?year=2025');
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      default_total: number;
      sites: Array<{ site_id: string; months: number[]; set: boolean[]; yearly_total: number }>;
    };
    expect(body.default_total).toBe(100);
    const one = body.sites.find((s) => s.site_id === m1)!;
    expect(one.months).toEqual(Array(12).fill(100));
    expect(one.set.every((x) => !x)).toBe(true);
    expect(one.yearly_total).toBe(1200);
    expect(await inTenant(t.deps.db.app, b.id, (tx) => siteManpowerFor(tx, m1, 2025, 3))).toBe(100);
  });

  it('sets months, derives the yearly total, and null returns a month to the default', async () => {
    const put = await call(t, adminB, 'PUT', '/api/sites/manpower', {
      year: 2025,
      entries: [
        { site_id: m1, month: 1, total: 250 },
        { site_id: m1, month: 2, total: 0 },
        { site_id: m2, month: 12, total: 40 },
      ],
    });
    expect(put.statusCode, put.body).toBe(200);
    const body = put.json() as { sites: Array<{ site_id: string; months: number[]; set: boolean[]; yearly_total: number }> };
    const one = body.sites.find((s) => s.site_id === m1)!;
    expect(one.months.slice(0, 3)).toEqual([250, 0, 100]);
    expect(one.yearly_total).toBe(250 + 0 + 1000);
    expect(body.sites.find((s) => s.site_id === m2)!.yearly_total).toBe(1100 + 40);
    expect(await inTenant(t.deps.db.app, b.id, (tx) => siteManpowerFor(tx, m1, 2025, 1))).toBe(250);
    // Another year is untouched.
    const other = (await call(t, adminB, 'GET', '/api/sites/manpower?year=2024')).json() as {
      sites: Array<{ site_id: string; yearly_total: number }>;
    };
    expect(other.sites.find((s) => s.site_id === m1)!.yearly_total).toBe(1200);
    const reset = await call(t, adminB, 'PUT', '/api/sites/manpower', { year: 2025, entries: [{ site_id: m1, month: 1, total: null }] });
    const after = (reset.json() as { sites: Array<{ site_id: string; months: number[]; set: boolean[] }> }).sites.find(
      (s) => s.site_id === m1,
    )!;
    expect(after.months[0]).toBe(100);
    expect(after.set[0]).toBe(false);
    expect(after.set[1]).toBe(true);
  });

  it('validates year, month and totals, writing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ year: 2025, entries: [{ site_id: m1, month: 13, total: 5 }] }, 'entries.0.month'],
      [{ year: 2025, entries: [{ site_id: m1, month: 3, total: -1 }] }, 'entries.0.total'],
      [{ year: 2025, entries: [{ site_id: m1, month: 3, total: 2.5 }] }, 'entries.0.total'],
      [{ year: 1999, entries: [{ site_id: m1, month: 3, total: 5 }] }, 'year'],
      [{ year: 2025, entries: [] }, 'entries'],
    ];
    for (const [body, field] of cases) {
      const res = await call(t, adminB, 'PUT', '/api/sites/manpower', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys((res.json() as { fields: Record<string, string> }).fields)).toContain(field);
    }
    expect((await call(t, adminB, 'GET', '/api/sites/manpower?year=1800')).statusCode).toBe(400);
    // All or nothing: one unknown site refuses the whole change.
    const mixed = await call(t, adminB, 'PUT', '/api/sites/manpower', {
      year: 2025,
      entries: [
        { site_id: m1, month: 6, total: 7 },
        { site_id: '0190a0b0-0000-7000-8000-000000000001', month: 6, total: 7 },
      ],
    });
    expect(mixed.statusCode).toBe(404);
    expect(await inTenant(t.deps.db.app, b.id, (tx) => siteManpowerFor(tx, m1, 2025, 6))).toBe(100);
  });

  it('is refused to a non-admin even with every other right', async () => {
    expect((await call(t, userA, 'GET', '/api/sites/manpower?year=2025')).statusCode).toBe(403);
  });

  it("organisation A never sees B's manpower sites", async () => {
    const res = (await call(t, adminA, 'GET', '/api/sites/manpower?year=2025')).json() as { sites: Array<{ site_id: string }> };
    expect(res.sites.some((s) => s.site_id === m1 || s.site_id === m2)).toBe(false);
  });
});

describe('demo seed', () => {
  it('creates three sites with trees in an empty organisation, once', async () => {
    const c = await createOrg(t, 'sitedemo');
    const ids = await inTenant(t.deps.db.app, c.id, (tx) => seedDemoSites(tx));
    expect(ids).toHaveLength(3);
    expect(await inTenant(t.deps.db.app, c.id, (tx) => seedDemoSites(tx))).toEqual([]);
    const s = await signIn(t, 'sitedemo', c.adminEmail);
    const names = (await call(t, s, 'GET', '/api/sites/site_full_name')).json() as { sites: Array<{ full_name: string }> };
    expect(names.sites.map((n) => n.full_name)).toContain('Riverside Manufacturing Plant / Production / Assembly / Line A');
    const mine = (await call(t, await signIn(t, 'sitedemo', c.userEmail), 'GET', '/api/v3/sites/active_sites_of_user')).json() as {
      sites: unknown[];
    };
    expect(mine.sites).toHaveLength(2);
  });
});
