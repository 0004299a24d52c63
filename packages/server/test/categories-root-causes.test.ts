import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOrg, userWithRights } from './categories-support.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let adminB: Session;
let readerA: Session;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'rca');
  b = await createOrg(t, 'rcb');
  adminA = await signIn(t, a.subDomain, a.adminEmail);
  adminB = await signIn(t, b.subDomain, b.adminEmail);
  readerA = await signIn(t, a.subDomain, a.userEmail);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Node = {
  id: string;
  name: string;
  parent_id: string | null;
  type_name: string;
  depth: number;
  active: boolean;
  children_count: number;
};

async function add(s: Session, name: string, parentId: string | null = null): Promise<Node> {
  const res = await call(t, s, 'POST', '/api/root_cause_settings', { name, parent_id: parentId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Node;
}
const countNodes = async (orgId: string) =>
  Number((await asOrg<{ n: number }>(t, orgId, sql`select count(*)::int as n from root_cause_settings`))[0]!.n);

describe('building the tree', () => {
  it('adds types and entries below them, carrying the type name and depth', async () => {
    const people = await add(adminA, 'People');
    expect(people).toMatchObject({ parent_id: null, type_name: 'People', depth: 0, children_count: 0 });
    const training = await add(adminA, 'Training', people.id);
    expect(training).toMatchObject({ parent_id: people.id, type_name: 'People', depth: 1 });
    // POST on an entry adds below it.
    const res = await call(t, adminA, 'POST', `/api/root_cause_settings/${training.id}`, { name: 'Not trained for the task' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ parent_id: training.id, type_name: 'People', depth: 2 });

    const list = (await call(t, adminA, 'GET', '/api/root_cause_settings')).json();
    expect(list.type_names).toEqual(['People']);
    expect(list.root_cause_settings.map((n: Node) => [n.name, n.depth, n.children_count])).toEqual([
      ['People', 0, 1],
      ['Training', 1, 1],
      ['Not trained for the task', 2, 0],
    ]);
  });

  it('refuses empty, too long and duplicate sibling names, and writes nothing', async () => {
    const equipment = await add(adminA, 'Equipment');
    await add(adminA, 'Maintenance', equipment.id);
    const before = await countNodes(a.id);
    const empty = await call(t, adminA, 'POST', '/api/root_cause_settings', { name: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.name).toBe('This field is required.');
    const long = await call(t, adminA, 'POST', '/api/root_cause_settings', { name: 'x'.repeat(151) });
    expect(long.json().fields.name).toBe('This is too long.');
    const badParent = await call(t, adminA, 'POST', '/api/root_cause_settings', { name: 'X', parent_id: 'nope' });
    expect(badParent.json().fields.parent_id).toBe('This value is not valid.');
    const dupType = await call(t, adminA, 'POST', '/api/root_cause_settings', { name: 'EQUIPMENT' });
    expect(dupType.statusCode).toBe(409);
    expect(dupType.json().fields.name).toBe('This name is already used here.');
    const dupChild = await call(t, adminA, 'POST', '/api/root_cause_settings', { name: 'maintenance', parent_id: equipment.id });
    expect(dupChild.statusCode).toBe(409);
    expect(await countNodes(a.id)).toBe(before);
    // The same name under another parent is fine.
    const people = (await call(t, adminA, 'GET', '/api/root_cause_settings?type_name=people')).json().root_cause_settings[0] as Node;
    await add(adminA, 'Maintenance', people.id);
  });

  it('stops at five levels below a type', async () => {
    let parent = await add(adminA, 'Environment');
    for (let level = 1; level <= 5; level += 1) parent = await add(adminA, `Why ${level}`, parent.id);
    expect(parent.depth).toBe(5);
    const res = await call(t, adminA, 'POST', '/api/root_cause_settings', { name: 'Why 6', parent_id: parent.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.parent_id).toBe('The tree may have at most five levels below a type.');
  });
});

describe('moving entries', () => {
  it('moves an entry with its subtree and updates the type name', async () => {
    const procedures = await add(adminA, 'Procedures');
    const site = await add(adminA, 'Site conditions');
    const missing = await add(adminA, 'Missing procedure', site.id);
    const leaf = await add(adminA, 'No permit system', missing.id);
    const res = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${missing.id}`, { parent_id: procedures.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ parent_id: procedures.id, type_name: 'Procedures', depth: 1 });
    const listing = (await call(t, adminA, 'GET', `/api/root_cause_settings/${leaf.id}/root_cause_parent_listing`)).json();
    expect(listing.root_cause_setting).toMatchObject({ type_name: 'Procedures', depth: 2 });
    expect(listing.ancestors.map((n: Node) => n.name)).toEqual(['Procedures', 'Missing procedure']);
    // Moved to the top it becomes a type of its own.
    const top = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${missing.id}`, { parent_id: null });
    expect(top.json()).toMatchObject({ parent_id: null, type_name: 'Missing procedure', depth: 0 });
  });

  it('refuses cycles and leaves the tree as it was', async () => {
    const root = await add(adminA, 'Organisation');
    const mid = await add(adminA, 'Supervision', root.id);
    const low = await add(adminA, 'No supervisor on shift', mid.id);
    for (const target of [root.id, low.id]) {
      const res = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${root.id}`, { parent_id: target });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.parent_id).toBe('An entry cannot be moved below itself or one of its own entries.');
    }
    const rows = await asOrg<{ parent_id: string | null }>(t, a.id, sql`select parent_id from root_cause_settings where id = ${root.id}`);
    expect(rows[0]!.parent_id).toBeNull();
  });

  it('refuses a move that makes the tree too deep or clashes with a sibling name', async () => {
    const deep = (await call(t, adminA, 'GET', '/api/root_cause_settings?search=Why 4')).json().root_cause_settings as Node[];
    const why4 = deep.find((n) => n.name === 'Why 4')!;
    const org = (await call(t, adminA, 'GET', '/api/root_cause_settings?type_name=Organisation')).json().root_cause_settings as Node[];
    const supervision = org.find((n) => n.name === 'Supervision')!;
    const tooDeep = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${supervision.id}`, { parent_id: why4.id });
    expect(tooDeep.json().fields.parent_id).toBe('The tree may have at most five levels below a type.');
    const procedures = (await call(t, adminA, 'GET', '/api/root_cause_settings?type_name=procedures')).json()
      .root_cause_settings[0] as Node;
    await add(adminA, 'Supervision', procedures.id);
    const clash = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${supervision.id}`, { parent_id: procedures.id });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().fields.name).toBe('This name is already used here.');
  });

  it('refuses a parent that does not exist or belongs to another organisation', async () => {
    const bNode = await add(adminB, 'B type');
    const mine = await add(adminA, 'Mine');
    for (const parentId of [bNode.id, '0190a0a0-0000-7000-8000-000000000009']) {
      const res = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${mine.id}`, { parent_id: parentId });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.parent_id).toBe('The chosen parent does not exist.');
      const create = await call(t, adminA, 'POST', '/api/root_cause_settings', { name: 'Child', parent_id: parentId });
      expect(create.json().fields.parent_id).toBe('The chosen parent does not exist.');
      expect((await call(t, adminA, 'POST', `/api/root_cause_settings/${parentId}`, { name: 'Child' })).statusCode).toBe(404);
    }
    expect(Number((await asOrg<{ n: number }>(t, b.id, sql`select count(*)::int as n from root_cause_settings`))[0]!.n)).toBe(1);
  });
});

describe('deactivating and deleting', () => {
  it('refuses to deactivate an entry with active entries below it, unless together', async () => {
    const type = await add(adminA, 'Materials');
    const child = await add(adminA, 'Wrong material', type.id);
    const grandchild = await add(adminA, 'Supplier changed spec', child.id);
    const refused = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${type.id}`, { active: false });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().fields.active).toBe('Deactivate the entries below it first, or deactivate them together.');
    expect((await asOrg<{ active: boolean }>(t, a.id, sql`select active from root_cause_settings where id = ${type.id}`))[0]!.active).toBe(
      true,
    );

    const together = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${type.id}`, { active: false, with_children: true });
    expect(together.statusCode, together.body).toBe(200);
    const rows = await asOrg<{ active: boolean }>(
      t,
      a.id,
      sql`select active from root_cause_settings where id in (${type.id}, ${child.id}, ${grandchild.id})`,
    );
    expect(rows.every((r) => !r.active)).toBe(true);

    // Nothing is activated or added below an inactive parent.
    const activateChild = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${child.id}`, { active: true });
    expect(activateChild.statusCode).toBe(400);
    expect(activateChild.json().fields.parent_id).toBe('Activate the parent first.');
    const addBelow = await call(t, adminA, 'POST', '/api/root_cause_settings', { name: 'New', parent_id: type.id });
    expect(addBelow.json().fields.parent_id).toBe('Activate the parent first.');

    // A leaf deactivates alone; the type comes back with everything below it.
    const back = await call(t, adminA, 'PATCH', `/api/root_cause_settings/${type.id}`, { active: true, with_children: true });
    expect(back.json().active).toBe(true);
    const after = await asOrg<{ active: boolean }>(
      t,
      a.id,
      sql`select active from root_cause_settings where id in (${type.id}, ${child.id}, ${grandchild.id})`,
    );
    expect(after.every((r) => r.active)).toBe(true);
    expect((await call(t, adminA, 'PATCH', `/api/root_cause_settings/${grandchild.id}`, { active: false })).statusCode).toBe(200);
  });

  it('deletes only an entry with nothing below it', async () => {
    const type = await add(adminA, 'Design');
    const child = await add(adminA, 'Poor layout', type.id);
    const refused = await call(t, adminA, 'DELETE', `/api/root_cause_settings/${type.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().fields.id).toBe('Delete the entries below it first.');
    expect((await call(t, adminA, 'DELETE', `/api/root_cause_settings/${child.id}`)).statusCode).toBe(200);
    expect((await call(t, adminA, 'DELETE', `/api/root_cause_settings/${type.id}`)).statusCode).toBe(200);
    expect((await call(t, adminA, 'GET', `/api/root_cause_settings/${type.id}/root_cause_parent_listing`)).statusCode).toBe(404);
  });
});

describe('reading', () => {
  it('lists the selectable root causes with their path', async () => {
    const res = await call(t, adminA, 'GET', '/api/root_cause_settings/phenomena_root_causes?type_name=People');
    expect(res.statusCode).toBe(200);
    const items = res.json().phenomena_root_causes as Array<{ name: string; type_name: string; path: string[] }>;
    expect(items.map((i) => i.path)).toEqual([
      ['People', 'Maintenance'],
      ['People', 'Training', 'Not trained for the task'],
    ]);
    // An inactive leaf is not offered; its active parent then is.
    const all = (await call(t, adminA, 'GET', '/api/root_cause_settings/phenomena_root_causes')).json().phenomena_root_causes as Array<{
      name: string;
    }>;
    expect(all.some((i) => i.name === 'Supplier changed spec')).toBe(false);
    expect(all.some((i) => i.name === 'Wrong material')).toBe(true);
    expect(all.some((i) => i.name === 'People')).toBe(false);
  });

  it('searches and keeps the path to each match, filters by status', async () => {
    const res = (await call(t, adminA, 'GET', '/api/root_cause_settings?search=not trained')).json();
    expect(res.root_cause_settings.map((n: Node) => n.name)).toEqual(['People', 'Training', 'Not trained for the task']);
    const inactive = (await call(t, adminA, 'GET', '/api/root_cause_settings?status=inactive')).json();
    expect(inactive.root_cause_settings.map((n: Node) => n.name)).toEqual(['Supplier changed spec']);
  });

  it('never shows another organisation’s entries and answers 404 for their ids', async () => {
    const aList = (await call(t, adminA, 'GET', '/api/root_cause_settings')).json();
    expect(aList.type_names).not.toContain('B type');
    const bList = (await call(t, adminB, 'GET', '/api/root_cause_settings')).json();
    expect(bList.root_cause_settings.map((n: Node) => n.name)).toEqual(['B type']);
    expect((await call(t, adminB, 'GET', '/api/root_cause_settings/phenomena_root_causes')).json().phenomena_root_causes).toEqual([]);
    const aNode = aList.root_cause_settings[0] as Node;
    expect((await call(t, adminB, 'GET', `/api/root_cause_settings/${aNode.id}/root_cause_parent_listing`)).statusCode).toBe(404);
    expect((await call(t, adminB, 'PATCH', `/api/root_cause_settings/${aNode.id}`, { name: 'Hacked' })).statusCode).toBe(404);
    expect((await call(t, adminB, 'DELETE', `/api/root_cause_settings/${aNode.id}`)).statusCode).toBe(404);
    expect((await asOrg<{ name: string }>(t, a.id, sql`select name from root_cause_settings where id = ${aNode.id}`))[0]!.name).toBe(
      aNode.name,
    );
  });
});

describe('rights', () => {
  it('refuses every call without the RC Master right', async () => {
    const node = await add(adminA, 'Rights check');
    const calls: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?]> = [
      ['GET', '/api/root_cause_settings'],
      ['GET', '/api/root_cause_settings/phenomena_root_causes'],
      ['GET', `/api/root_cause_settings/${node.id}/root_cause_parent_listing`],
      ['POST', '/api/root_cause_settings', { name: 'Nope' }],
      ['POST', `/api/root_cause_settings/${node.id}`, { name: 'Nope' }],
      ['PATCH', `/api/root_cause_settings/${node.id}`, { name: 'Nope' }],
      ['DELETE', `/api/root_cause_settings/${node.id}`],
    ];
    for (const [method, url, body] of calls) {
      expect((await call(t, readerA, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('separates read, create, update and delete', async () => {
    const node = await add(adminA, 'Rights split');
    const reader = await userWithRights(t, a, [{ subject: 'RC Master', read: true }]);
    expect((await call(t, reader.session, 'GET', '/api/root_cause_settings')).statusCode).toBe(200);
    expect((await call(t, reader.session, 'POST', '/api/root_cause_settings', { name: 'Nope' })).statusCode).toBe(403);
    const editor = await userWithRights(t, a, [{ subject: 'RC Master', read: true, update: true }]);
    expect((await call(t, editor.session, 'PATCH', `/api/root_cause_settings/${node.id}`, { name: 'Renamed' })).statusCode).toBe(200);
    expect((await call(t, editor.session, 'DELETE', `/api/root_cause_settings/${node.id}`)).statusCode).toBe(403);
    const deleter = await userWithRights(t, a, [{ subject: 'RC Master', read: true, delete: true }]);
    expect((await call(t, deleter.session, 'DELETE', `/api/root_cause_settings/${node.id}`)).statusCode).toBe(200);
  });
});
