import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { asOrg, userWithRights } from './categories-support.js';
import { inTenant } from '../src/platform/db/db.js';
import { seedDemoCategories, seedDemoRootCauses } from '../src/modules/categories/seed.js';
import { twoOrganizations, type TestOrganization } from './fixtures.js';
import { call, createOrg, signIn, type Session, type TestApp } from './helpers.js';

const world = twoOrganizations('cat');
let t: TestApp;
let a: TestOrganization;
let b: TestOrganization;
let adminA: Session;
let adminB: Session;
let readerA: Session;

beforeAll(() => {
  ({ t, a, b } = world);
  adminA = a.admin;
  adminB = b.admin;
  readerA = a.user;
});

const countCategories = async (orgId: string) =>
  Number((await asOrg<{ n: number }>(t, orgId, sql`select count(*)::int as n from categories`))[0]!.n);

async function createCategory(s: Session, body: Record<string, unknown>) {
  const res = await call(t, s, 'POST', '/api/categories', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; name: string; module: string; type: string; active: boolean; sub_category_count: number };
}

describe('category types', () => {
  it('lists the types of each module', async () => {
    const res = await call(t, adminA, 'GET', '/api/categories/category_types');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { category_types: Array<{ module: string; types: string[] }> };
    expect(body.category_types.find((m) => m.module === 'observations')?.types).toEqual([
      'unsafe_act',
      'unsafe_condition',
      'near_miss',
      'good_practice',
    ]);
    expect(body.category_types.map((m) => m.module)).toEqual(['observations', 'incidents', 'actions', 'hira']);
  });
});

describe('creating categories', () => {
  it('creates a category and trims its name', async () => {
    const c = await createCategory(adminA, {
      module: 'observations',
      type: 'unsafe_act',
      name: '  Working at height  ',
      description: 'Ladders, roofs',
    });
    expect(c).toMatchObject({ name: 'Working at height', module: 'observations', type: 'unsafe_act', active: true, sub_category_count: 0 });
    const audit = await asOrg<{ n: number }>(
      t,
      a.id,
      sql`select count(*)::int as n from audit_log where entity = 'Category' and entity_id = ${c.id}`,
    );
    expect(audit[0]!.n).toBe(1);
  });

  it('refuses each invalid field with its translated message and writes nothing', async () => {
    const before = await countCategories(a.id);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ module: 'observations', type: 'unsafe_act' }, 'name', 'This field is required.'],
      [{ module: 'observations', type: 'unsafe_act', name: '   ' }, 'name', 'This field is required.'],
      [{ module: 'observations', type: 'unsafe_act', name: 'x'.repeat(121) }, 'name', 'This is too long.'],
      [{ type: 'unsafe_act', name: 'A' }, 'module', 'This field is required.'],
      [{ module: 'library', type: 'unsafe_act', name: 'A' }, 'module', 'This value is not valid.'],
      [{ module: 'observations', name: 'A' }, 'type', 'This field is required.'],
      [{ module: 'observations', type: 'injury', name: 'A' }, 'type', 'This type does not belong to the chosen module.'],
      [{ module: 'observations', type: 'unsafe_act', name: 'A', description: 'd'.repeat(501) }, 'description', 'This is too long.'],
      [{ module: 'observations', type: 'unsafe_act', name: 'A', active: 'yes' }, 'active', 'This value is not valid.'],
    ];
    for (const [body, field, text] of cases) {
      const res = await call(t, adminA, 'POST', '/api/categories', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(body)).toBe(text);
    }
    expect(await countCategories(a.id)).toBe(before);
  });

  it('translates refusals into the request language', async () => {
    const res = await call(
      t,
      adminA,
      'POST',
      '/api/categories',
      { module: 'observations', type: 'injury', name: 'A' },
      { 'accept-language': 'es' },
    );
    expect(res.json().fields.type).toBe('Este tipo no pertenece al módulo elegido.');
  });

  it('keeps names unique within a module type, ignoring case', async () => {
    await createCategory(adminA, { module: 'incidents', type: 'injury', name: 'Hand injury' });
    const before = await countCategories(a.id);
    const dup = await call(t, adminA, 'POST', '/api/categories', { module: 'incidents', type: 'injury', name: 'HAND INJURY' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields.name).toBe('This name is already used here.');
    expect(await countCategories(a.id)).toBe(before);
    // Another type, or another organisation, may use the name.
    await createCategory(adminA, { module: 'incidents', type: 'property_damage', name: 'Hand injury' });
    await createCategory(adminB, { module: 'incidents', type: 'injury', name: 'Hand injury' });
  });
});

describe('listing categories', () => {
  beforeAll(async () => {
    for (const name of ['Housekeeping', 'PPE not worn', 'Blocked exit', 'Spill on floor']) {
      await createCategory(adminA, { module: 'observations', type: 'unsafe_condition', name });
    }
    await createCategory(adminB, { module: 'observations', type: 'unsafe_condition', name: 'B only secret' });
  });

  it('filters by module and type, searches and pages', async () => {
    const res = await call(t, adminA, 'GET', '/api/categories?module=observations&type=unsafe_condition&per_page=2&page=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 2, per_page: 2, total: 4, total_pages: 2 });
    expect(body.categories.map((c: { name: string }) => c.name)).toEqual(['PPE not worn', 'Spill on floor']);
    const search = await call(t, adminA, 'GET', '/api/categories?search=exit');
    expect(search.json().categories.map((c: { name: string }) => c.name)).toEqual(['Blocked exit']);
    // A search treats % literally.
    expect((await call(t, adminA, 'GET', '/api/categories?search=%25')).json().categories).toEqual([]);
  });

  it('refuses unknown filters', async () => {
    const res = await call(t, adminA, 'GET', '/api/categories?type=sideways');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.type).toBe('This value is not valid.');
    expect((await call(t, adminA, 'GET', '/api/categories?per_page=0')).statusCode).toBe(400);
  });

  it('never shows another organisation’s rows', async () => {
    const all = await call(t, adminA, 'GET', '/api/categories?per_page=200');
    expect(all.json().categories.some((c: { name: string }) => c.name === 'B only secret')).toBe(false);
    const bList = await call(t, adminB, 'GET', '/api/categories?per_page=200');
    expect(
      bList
        .json()
        .categories.map((c: { name: string }) => c.name)
        .sort(),
    ).toEqual(['B only secret', 'Hand injury']);
  });

  it('filters by status', async () => {
    const c = await createCategory(adminA, { module: 'hira', type: 'health', name: 'Noise', active: false });
    const inactive = await call(t, adminA, 'GET', '/api/categories?status=inactive');
    expect(inactive.json().categories.map((x: { id: string }) => x.id)).toEqual([c.id]);
  });
});

describe('changing categories', () => {
  it('renames, retypes within the module and deactivates', async () => {
    const c = await createCategory(adminA, { module: 'actions', type: 'corrective', name: 'Guarding' });
    const res = await call(t, adminA, 'PATCH', `/api/categories/${c.id}`, { name: 'Machine guarding', type: 'preventive', active: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Machine guarding', type: 'preventive', active: false, module: 'actions' });
    const detail = await call(t, adminA, 'GET', `/api/categories/${c.id}`);
    expect(detail.json().category).toMatchObject({ name: 'Machine guarding', active: false });
  });

  it('refuses a type of another module, a taken name and an empty change', async () => {
    const c = await createCategory(adminA, { module: 'actions', type: 'corrective', name: 'Lighting' });
    await createCategory(adminA, { module: 'actions', type: 'corrective', name: 'Ventilation' });
    const wrongType = await call(t, adminA, 'PATCH', `/api/categories/${c.id}`, { type: 'injury' });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().fields.type).toBe('This type does not belong to the chosen module.');
    const taken = await call(t, adminA, 'PATCH', `/api/categories/${c.id}`, { name: 'ventilation' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fields.name).toBe('This name is already used here.');
    expect((await call(t, adminA, 'PATCH', `/api/categories/${c.id}`, {})).statusCode).toBe(400);
    // A change of case of its own name is fine.
    expect((await call(t, adminA, 'PATCH', `/api/categories/${c.id}`, { name: 'LIGHTING' })).statusCode).toBe(200);
    const row = await asOrg<{ name: string; type: string }>(t, a.id, sql`select name, type from categories where id = ${c.id}`);
    expect(row[0]).toEqual({ name: 'LIGHTING', type: 'corrective' });
  });

  it('answers 404 for a missing id and for another organisation’s id', async () => {
    const bCat = await createCategory(adminB, { module: 'hira', type: 'safety', name: 'Confined space' });
    for (const id of [bCat.id, '0190a0a0-0000-7000-8000-000000000001']) {
      expect((await call(t, adminA, 'GET', `/api/categories/${id}`)).statusCode).toBe(404);
      expect((await call(t, adminA, 'PATCH', `/api/categories/${id}`, { name: 'Stolen' })).statusCode).toBe(404);
      expect((await call(t, adminA, 'GET', `/api/categories/${id}/sub_categories`)).statusCode).toBe(404);
      expect((await call(t, adminA, 'POST', `/api/categories/${id}/sub_categories`, { name: 'x' })).statusCode).toBe(404);
    }
    const row = await asOrg<{ name: string }>(t, b.id, sql`select name from categories where id = ${bCat.id}`);
    expect(row[0]!.name).toBe('Confined space');
    expect((await call(t, adminA, 'GET', '/api/categories/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('sub-categories', () => {
  it('adds, lists, renames and deactivates sub-categories, unique per category', async () => {
    const c = await createCategory(adminA, { module: 'observations', type: 'unsafe_act', name: 'Manual handling' });
    const add = await call(t, adminA, 'POST', `/api/categories/${c.id}/sub_categories`, { name: 'Lifting' });
    expect(add.statusCode, add.body).toBe(201);
    const sub = add.json();
    expect(sub).toMatchObject({ name: 'Lifting', category_id: c.id, active: true });
    await call(t, adminA, 'POST', `/api/categories/${c.id}/sub_categories`, { name: 'Carrying' });
    const dup = await call(t, adminA, 'POST', `/api/categories/${c.id}/sub_categories`, { name: 'lifting' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().fields.name).toBe('This name is already used here.');
    const empty = await call(t, adminA, 'POST', `/api/categories/${c.id}/sub_categories`, { name: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.name).toBe('This field is required.');

    // The same name under another category is fine.
    const other = await createCategory(adminA, { module: 'observations', type: 'unsafe_act', name: 'Rigging' });
    expect((await call(t, adminA, 'POST', `/api/categories/${other.id}/sub_categories`, { name: 'Lifting' })).statusCode).toBe(201);

    const detail = (await call(t, adminA, 'GET', `/api/categories/${c.id}`)).json();
    expect(detail.category.sub_category_count).toBe(2);
    expect(detail.sub_categories.map((s: { name: string }) => s.name)).toEqual(['Carrying', 'Lifting']);

    const renamed = await call(t, adminA, 'PATCH', `/api/categories/${c.id}/sub_categories/${sub.id}`, {
      name: 'Lifting loads',
      active: false,
    });
    expect(renamed.json()).toMatchObject({ name: 'Lifting loads', active: false });
    const clash = await call(t, adminA, 'PATCH', `/api/categories/${c.id}/sub_categories/${sub.id}`, { name: 'CARRYING' });
    expect(clash.statusCode).toBe(409);
    // A sub-category reached through another category is not found.
    expect((await call(t, adminA, 'PATCH', `/api/categories/${other.id}/sub_categories/${sub.id}`, { name: 'Moved' })).statusCode).toBe(
      404,
    );
    const list = await call(t, adminA, 'GET', `/api/categories/${c.id}/sub_categories`);
    expect(list.json().sub_categories.map((s: { name: string }) => s.name)).toEqual(['Carrying', 'Lifting loads']);
  });

  it('hides sub-categories from another organisation', async () => {
    const c = await createCategory(adminA, { module: 'incidents', type: 'fire', name: 'Electrical fire' });
    const sub = (await call(t, adminA, 'POST', `/api/categories/${c.id}/sub_categories`, { name: 'Switchboard' })).json();
    expect((await call(t, adminB, 'PATCH', `/api/categories/${c.id}/sub_categories/${sub.id}`, { name: 'Hacked' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'GET', `/api/categories/${c.id}/sub_categories`)).statusCode).toBe(404);
  });
});

describe('rights', () => {
  it('refuses every call without the Category right', async () => {
    const c = await createCategory(adminA, { module: 'hira', type: 'environment', name: 'Dust' });
    const sub = (await call(t, adminA, 'POST', `/api/categories/${c.id}/sub_categories`, { name: 'Silica' })).json();
    const calls: Array<['GET' | 'POST' | 'PATCH', string, unknown?]> = [
      ['GET', '/api/categories'],
      ['GET', '/api/categories/category_types'],
      ['GET', `/api/categories/${c.id}`],
      ['GET', `/api/categories/${c.id}/sub_categories`],
      ['POST', '/api/categories', { module: 'hira', type: 'health', name: 'Heat' }],
      ['PATCH', `/api/categories/${c.id}`, { name: 'Nope' }],
      ['POST', `/api/categories/${c.id}/sub_categories`, { name: 'Nope' }],
      ['PATCH', `/api/categories/${c.id}/sub_categories/${sub.id}`, { name: 'Nope' }],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(t, readerA, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await call(t, null, 'GET', '/api/categories', undefined, { 'x-tenant': a.subDomain })).statusCode).toBe(401);
  });

  it('separates read, create and update', async () => {
    const c = await createCategory(adminA, { module: 'hira', type: 'environment', name: 'Fumes' });
    const reader = await userWithRights(t, a, [{ subject: 'Category', read: true }]);
    expect((await call(t, reader.session, 'GET', '/api/categories')).statusCode).toBe(200);
    expect((await call(t, reader.session, 'POST', '/api/categories', { module: 'hira', type: 'health', name: 'Heat' })).statusCode).toBe(
      403,
    );
    expect((await call(t, reader.session, 'PATCH', `/api/categories/${c.id}`, { name: 'Nope' })).statusCode).toBe(403);
    const creator = await userWithRights(t, a, [{ subject: 'Category', read: true, create: true }]);
    expect((await call(t, creator.session, 'POST', '/api/categories', { module: 'hira', type: 'health', name: 'Heat' })).statusCode).toBe(
      201,
    );
    expect((await call(t, creator.session, 'PATCH', `/api/categories/${c.id}`, { name: 'Nope' })).statusCode).toBe(403);
    const editor = await userWithRights(t, a, [{ subject: 'Category', read: true, update: true }]);
    expect((await call(t, editor.session, 'PATCH', `/api/categories/${c.id}`, { name: 'Welding fumes' })).statusCode).toBe(200);
  });
});

describe('demo content', () => {
  it('adds categories and a why-analysis tree to an empty organisation, once', async () => {
    const c = await createOrg(t, 'catseed');
    const first = await inTenant(t.deps.db.app, c.id, async (tx) => ({
      cats: await seedDemoCategories(tx),
      rcs: await seedDemoRootCauses(tx),
    }));
    expect(first.cats.categories).toBeGreaterThan(10);
    expect(first.rcs).toBeGreaterThan(20);
    const again = await inTenant(t.deps.db.app, c.id, async (tx) => ({
      cats: await seedDemoCategories(tx),
      rcs: await seedDemoRootCauses(tx),
    }));
    expect(again).toEqual({ cats: { categories: 0, subCategories: 0 }, rcs: 0 });
    const s = await signIn(t, c.subDomain, c.adminEmail);
    const list = (await call(t, s, 'GET', '/api/categories?module=observations&type=unsafe_condition')).json();
    expect(list.categories.map((x: { name: string }) => x.name)).toContain('Housekeeping');
    const tree = (await call(t, s, 'GET', '/api/root_cause_settings')).json();
    expect(tree.type_names).toEqual(['Environment', 'Equipment', 'People', 'Procedures']);
    const picks = (await call(t, s, 'GET', '/api/root_cause_settings/phenomena_root_causes?type_name=People')).json();
    expect(picks.phenomena_root_causes.map((p: { path: string[] }) => p.path)).toContainEqual([
      'People',
      'Training',
      'Not trained for the task',
    ]);
    // Organisation A's lists are untouched.
    expect((await call(t, adminA, 'GET', '/api/categories?search=Housekeeping')).json().categories.length).toBe(1);
  });
});
