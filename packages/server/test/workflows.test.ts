import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replaceRemovedReviewer } from '../src/modules/workflows/service.js';
import { inTenant } from '../src/platform/db/db.js';
import { asOrg, userWithRights } from './categories-support.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let adminB: Session;
let readerA: Session;
let siteA: string;
let siteB: string;
let people: string[];
let fiveId: string;

async function addSite(orgId: string, name: string): Promise<string> {
  const rows = await asOrg<{ id: string }>(
    t,
    orgId,
    sql`insert into sites (name, time_zone, emergency_phone, address, city, state, country, zip)
    values (${name}, 'Europe/London', '+441234567890', '1 Main St', 'Leeds', 'Yorkshire', 'GB', 'LS1 1AA') returning id`,
  );
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'wfa');
  b = await createOrg(t, 'wfb');
  adminA = await signIn(t, a.subDomain, a.adminEmail);
  adminB = await signIn(t, b.subDomain, b.adminEmail);
  readerA = await signIn(t, a.subDomain, a.userEmail);
  siteA = await addSite(a.id, 'Leeds plant');
  siteB = await addSite(b.id, 'B plant');
  people = [];
  for (let i = 0; i < 6; i += 1) people.push((await userWithRights(t, a, [{ subject: 'Observation', read: true }])).id);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const countWorkflows = async (orgId: string) =>
  Number((await asOrg<{ n: number }>(t, orgId, sql`select count(*)::int as n from workflows`))[0]!.n);
const base = () => ({
  title: 'Hot work permit review',
  module: 'permits',
  type: 'sequential',
  reviewer_ids: [people[0], people[1]],
  lead_time_hours: 2,
  site_ids: [siteA],
});

type Wf = {
  id: string;
  title: string;
  reviewers: Array<{ id: string; position: number }>;
  escalation_user: { id: string } | null;
  site_ids: string[];
  form_ids: string[];
};
async function create(s: Session, body: Record<string, unknown>): Promise<Wf> {
  const res = await call(t, s, 'POST', '/api/workflows', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Wf;
}

describe('creating workflows', () => {
  it('creates a workflow with its reviewers in order', async () => {
    const w = await create(adminA, {
      ...base(),
      reviewer_ids: [people[2], people[0], people[1]],
      escalation_user_id: a.adminId,
      form_ids: ['0190a0a0-0000-7000-8000-0000000000f1'],
    });
    expect(w.reviewers.map((r) => [r.id, r.position])).toEqual([
      [people[2], 1],
      [people[0], 2],
      [people[1], 3],
    ]);
    expect(w).toMatchObject({
      title: 'Hot work permit review',
      site_ids: [siteA],
      escalation_user: { id: a.adminId },
      form_ids: ['0190a0a0-0000-7000-8000-0000000000f1'],
    });
    const again = (await call(t, adminA, 'GET', `/api/workflows/${w.id}`)).json();
    expect(again.reviewers.map((r: { id: string }) => r.id)).toEqual([people[2], people[0], people[1]]);
  });

  it('accepts five reviewers and forms without sites', async () => {
    const w = await create(adminA, {
      ...base(),
      type: 'parallel',
      reviewer_ids: people.slice(0, 5),
      site_ids: [],
      form_ids: ['0190a0a0-0000-7000-8000-0000000000f2'],
    });
    expect(w.reviewers).toHaveLength(5);
    fiveId = w.id;
  });

  it('refuses each invalid field with its message and writes nothing', async () => {
    const before = await countWorkflows(a.id);
    const inactive = (await userWithRights(t, a, [])).id;
    await asOrg(t, a.id, sql`update users set status = 'Inactive' where id = ${inactive}`);
    const bUser = b.adminId;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ...base(), title: undefined }, 'title', 'This field is required.'],
      [{ ...base(), title: '  ' }, 'title', 'Enter the workflow title.'],
      [{ ...base(), title: 't'.repeat(151) }, 'title', 'This is too long.'],
      [{ ...base(), module: 'library' }, 'module', 'This value is not valid.'],
      [{ ...base(), type: 'random' }, 'type', 'This value is not valid.'],
      [{ ...base(), reviewer_ids: [] }, 'reviewer_ids', 'Choose at least one reviewer.'],
      [{ ...base(), reviewer_ids: people.slice(0, 6) }, 'reviewer_ids', 'A workflow has at most five reviewers.'],
      [{ ...base(), reviewer_ids: [people[0], people[0]] }, 'reviewer_ids', 'Each reviewer may appear only once.'],
      [{ ...base(), reviewer_ids: [bUser] }, 'reviewer_ids', 'Each reviewer must be an active user of this organisation.'],
      [{ ...base(), reviewer_ids: [inactive] }, 'reviewer_ids', 'Each reviewer must be an active user of this organisation.'],
      [{ ...base(), lead_time_hours: 0 }, 'lead_time_hours', 'Enter a whole number of hours from 1 to 8760.'],
      [{ ...base(), lead_time_hours: 8761 }, 'lead_time_hours', 'Enter a whole number of hours from 1 to 8760.'],
      [{ ...base(), lead_time_hours: 1.5 }, 'lead_time_hours', 'Enter a whole number of hours from 1 to 8760.'],
      [{ ...base(), lead_time_hours: undefined }, 'lead_time_hours', 'This field is required.'],
      [{ ...base(), escalation_user_id: people[0] }, 'escalation_user_id', 'The escalation user must not be one of the reviewers.'],
      [{ ...base(), escalation_user_id: bUser }, 'escalation_user_id', 'The escalation user must be an active user of this organisation.'],
      [{ ...base(), site_ids: [] }, 'site_ids', 'Choose at least one site or form.'],
      [{ ...base(), site_ids: [siteB] }, 'site_ids', 'Each site must be a site of this organisation.'],
      [{ ...base(), site_ids: ['not-a-uuid'] }, 'site_ids.0', 'This value is not valid.'],
    ];
    for (const [body, field, text] of cases) {
      const res = await call(t, adminA, 'POST', '/api/workflows', body);
      expect(res.statusCode, `${field} ${res.body}`).toBe(400);
      expect(res.json().fields[field], `${field} ${res.body}`).toBe(text);
    }
    expect(await countWorkflows(a.id)).toBe(before);
  });

  it('translates refusals into the request language', async () => {
    const res = await call(
      t,
      adminA,
      'POST',
      '/api/workflows',
      { ...base(), reviewer_ids: people.slice(0, 6) },
      { 'accept-language': 'tr' },
    );
    expect(res.json().fields.reviewer_ids).toBe('Bir iş akışında en fazla beş inceleyen olabilir.');
  });
});

describe('changing and deleting workflows', () => {
  it('reorders reviewers and changes fields', async () => {
    const w = await create(adminA, { ...base(), title: 'Audit approval', module: 'audits' });
    const res = await call(t, adminA, 'PATCH', `/api/workflows/${w.id}`, {
      reviewer_ids: [people[1], people[0], people[3]],
      type: 'parallel',
      lead_time_hours: 240,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ type: 'parallel', lead_time_hours: 240, title: 'Audit approval' });
    expect(res.json().reviewers.map((r: { id: string }) => r.id)).toEqual([people[1], people[0], people[3]]);
  });

  it('holds the merged workflow to the same rules', async () => {
    const w = await create(adminA, { ...base(), title: 'Observation review', module: 'observations' });
    const noTarget = await call(t, adminA, 'PATCH', `/api/workflows/${w.id}`, { site_ids: [] });
    expect(noTarget.statusCode).toBe(400);
    expect(noTarget.json().fields.site_ids).toBe('Choose at least one site or form.');
    const escReviewer = await call(t, adminA, 'PATCH', `/api/workflows/${w.id}`, { escalation_user_id: people[1] });
    expect(escReviewer.json().fields.escalation_user_id).toBe('The escalation user must not be one of the reviewers.');
    const six = await call(t, adminA, 'PATCH', `/api/workflows/${w.id}`, { reviewer_ids: people.slice(0, 6) });
    expect(six.json().fields.reviewer_ids).toBe('A workflow has at most five reviewers.');
    expect((await call(t, adminA, 'PATCH', `/api/workflows/${w.id}`, {})).statusCode).toBe(400);
    const stored = (await call(t, adminA, 'GET', `/api/workflows/${w.id}`)).json();
    expect(stored.site_ids).toEqual([siteA]);
    expect(stored.reviewers).toHaveLength(2);
  });

  it('deletes a workflow with its reviewers and sites', async () => {
    const w = await create(adminA, { ...base(), title: 'To delete' });
    const res = await call(t, adminA, 'DELETE', `/api/workflows/${w.id}`);
    expect(res.statusCode).toBe(200);
    expect((await call(t, adminA, 'GET', `/api/workflows/${w.id}`)).statusCode).toBe(404);
    const left = await asOrg<{ n: number }>(
      t,
      a.id,
      sql`select (select count(*) from workflow_reviewers where workflow_id = ${w.id}) + (select count(*) from workflow_sites where workflow_id = ${w.id}) as n`,
    );
    expect(Number(left[0]!.n)).toBe(0);
  });
});

describe('listing', () => {
  it('filters by module, searches and pages; never shows another organisation', async () => {
    await create(adminB, {
      title: 'B secret flow',
      module: 'hira',
      type: 'parallel',
      reviewer_ids: [b.adminId],
      lead_time_hours: 3,
      site_ids: [siteB],
    });
    const all = (await call(t, adminA, 'GET', '/api/workflows?per_page=200')).json();
    expect(all.workflows.some((w: Wf) => w.title === 'B secret flow')).toBe(false);
    expect(all.pagination.total).toBe(all.workflows.length);
    const permits = (await call(t, adminA, 'GET', '/api/workflows?module=permits')).json();
    expect(permits.workflows.every((w: { module: string }) => w.module === 'permits')).toBe(true);
    expect(permits.workflows.length).toBeGreaterThan(0);
    const search = (await call(t, adminA, 'GET', '/api/workflows?search=audit')).json();
    expect(search.workflows.map((w: Wf) => w.title)).toEqual(['Audit approval']);
    const paged = (await call(t, adminA, 'GET', '/api/workflows?per_page=1&page=2')).json();
    expect(paged.workflows).toHaveLength(1);
    expect(paged.pagination).toMatchObject({ page: 2, per_page: 1 });
    expect((await call(t, adminA, 'GET', '/api/workflows?module=library')).statusCode).toBe(400);
  });

  it('offers only the organisation’s active users and sites', async () => {
    const options = (await call(t, adminA, 'GET', '/api/workflows/options')).json();
    expect(options.sites).toEqual([{ id: siteA, name: 'Leeds plant' }]);
    const ids = options.users.map((u: { id: string }) => u.id);
    expect(ids).toContain(a.adminId);
    expect(ids).not.toContain(b.adminId);
  });

  it('answers 404 for another organisation’s workflow on every call', async () => {
    const bw = (await call(t, adminB, 'GET', '/api/workflows')).json().workflows[0] as Wf;
    expect((await call(t, adminA, 'GET', `/api/workflows/${bw.id}`)).statusCode).toBe(404);
    expect((await call(t, adminA, 'PATCH', `/api/workflows/${bw.id}`, { title: 'Hacked' })).statusCode).toBe(404);
    expect((await call(t, adminA, 'DELETE', `/api/workflows/${bw.id}`)).statusCode).toBe(404);
    expect((await call(t, adminB, 'GET', `/api/workflows/${bw.id}`)).json().title).toBe('B secret flow');
  });
});

describe('rights', () => {
  it('refuses every call without the WorkFlow right', async () => {
    const w = await create(adminA, { ...base(), title: 'Rights' });
    const calls: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?]> = [
      ['GET', '/api/workflows'],
      ['GET', '/api/workflows/options'],
      ['GET', `/api/workflows/${w.id}`],
      ['POST', '/api/workflows', base()],
      ['PATCH', `/api/workflows/${w.id}`, { title: 'x' }],
      ['DELETE', `/api/workflows/${w.id}`],
    ];
    for (const [method, url, body] of calls) expect((await call(t, readerA, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
  });

  it('separates read, create, update and delete', async () => {
    const w = await create(adminA, { ...base(), title: 'Split' });
    const reader = await userWithRights(t, a, [{ subject: 'WorkFlow', read: true }]);
    expect((await call(t, reader.session, 'GET', '/api/workflows')).statusCode).toBe(200);
    expect((await call(t, reader.session, 'POST', '/api/workflows', base())).statusCode).toBe(403);
    const editor = await userWithRights(t, a, [{ subject: 'WorkFlow', read: true, update: true }]);
    expect((await call(t, editor.session, 'PATCH', `/api/workflows/${w.id}`, { title: 'Split 2' })).statusCode).toBe(200);
    expect((await call(t, editor.session, 'DELETE', `/api/workflows/${w.id}`)).statusCode).toBe(403);
    const creator = await userWithRights(t, a, [{ subject: 'WorkFlow', create: true }]);
    expect((await call(t, creator.session, 'POST', '/api/workflows', { ...base(), title: 'By creator' })).statusCode).toBe(201);
  });
});

describe('replaceRemovedReviewer (spec 001 §6)', () => {
  const reviewersOf = async (id: string) => (await call(t, adminA, 'GET', `/api/workflows/${id}`)).json() as Wf;

  it('makes the account creator the primary reviewer in place of the removed one', async () => {
    // A second, newer administrator must not be chosen: the creator is the oldest one.
    await userWithRights(t, a, [], true);
    const w1 = await create(adminA, { ...base(), title: 'R1', reviewer_ids: [people[0], people[4], people[1]] });
    const w2 = await create(adminA, { ...base(), title: 'R2', reviewer_ids: [people[1], a.adminId, people[4]] });
    const w3 = await create(adminA, { ...base(), title: 'R3', reviewer_ids: [people[1]], escalation_user_id: people[4] });
    const w4 = await create(adminA, { ...base(), title: 'R4', reviewer_ids: [people[0]], escalation_user_id: people[4] });
    const other = await create(adminA, { ...base(), title: 'Untouched', reviewer_ids: [people[0], people[1]] });

    const result = await inTenant(t.deps.db.app, a.id, async (tx) => {
      const r = await replaceRemovedReviewer(tx, people[4]!);
      await tx.execute(sql`update users set status = 'Deleted' where id = ${people[4]}`);
      return r;
    });
    expect(result.replacementUserId).toBe(a.adminId);
    expect(result.workflowIds.sort()).toEqual([w1.id, w2.id, w3.id, w4.id, fiveId].sort());
    // Five reviewers stay five: the creator takes the first place.
    expect((await reviewersOf(fiveId)).reviewers.map((r) => r.id)).toEqual([a.adminId, ...people.slice(0, 4)]);

    expect((await reviewersOf(w1.id)).reviewers.map((r) => r.id)).toEqual([a.adminId, people[0], people[1]]);
    // Already a reviewer: moved to first place, not listed twice.
    expect((await reviewersOf(w2.id)).reviewers.map((r) => r.id)).toEqual([a.adminId, people[1]]);
    // Only the escalation user: the creator takes over the escalation.
    expect((await reviewersOf(w3.id)).reviewers.map((r) => r.id)).toEqual([people[1]]);
    expect((await reviewersOf(w3.id)).escalation_user?.id).toBe(a.adminId);
    expect((await reviewersOf(w4.id)).escalation_user?.id).toBe(a.adminId);
    expect((await reviewersOf(other.id)).reviewers.map((r) => r.id)).toEqual([people[0], people[1]]);
    const audit = await asOrg<{ n: number }>(
      t,
      a.id,
      sql`select count(*)::int as n from audit_log where entity = 'WorkFlow' and changes->>'removedUserId' = ${people[4]}`,
    );
    expect(audit[0]!.n).toBe(5);
  });

  it('clears the escalation when the creator becomes a reviewer of it', async () => {
    const w = await create(adminA, { ...base(), title: 'R5', reviewer_ids: [people[3]], escalation_user_id: a.adminId });
    await inTenant(t.deps.db.app, a.id, (tx) => replaceRemovedReviewer(tx, people[3]!));
    const after = await reviewersOf(w.id);
    expect(after.reviewers.map((r) => r.id)).toEqual([a.adminId]);
    expect(after.escalation_user).toBeNull();
  });

  it('lets the user row go only once the reviewer is replaced', async () => {
    const doomed = (await userWithRights(t, a, [])).id;
    const w = await create(adminA, { ...base(), title: 'R6', reviewer_ids: [doomed, people[0]] });
    await expect(inTenant(t.deps.db.app, a.id, (tx) => tx.execute(sql`delete from users where id = ${doomed}`))).rejects.toThrow();
    await inTenant(t.deps.db.app, a.id, async (tx) => {
      await replaceRemovedReviewer(tx, doomed);
      await tx.execute(sql`delete from users where id = ${doomed}`);
    });
    expect((await reviewersOf(w.id)).reviewers.map((r) => r.id)).toEqual([a.adminId, people[0]]);
  });

  it('refuses when no administrator is left to take over a sole reviewer, and touches nothing in another organisation', async () => {
    const bWorkflow = (await call(t, adminB, 'GET', '/api/workflows')).json().workflows[0] as Wf;
    // Organisation B has one administrator, the sole reviewer of its workflow.
    await expect(inTenant(t.deps.db.app, b.id, (tx) => replaceRemovedReviewer(tx, b.adminId))).rejects.toMatchObject({ code: 'conflict' });
    expect((await call(t, adminB, 'GET', `/api/workflows/${bWorkflow.id}`)).json().reviewers.map((r: { id: string }) => r.id)).toEqual([
      b.adminId,
    ]);
    // Run in organisation A, B's user id matches nothing.
    const r = await inTenant(t.deps.db.app, a.id, (tx) => replaceRemovedReviewer(tx, b.adminId));
    expect(r.workflowIds).toEqual([]);
  });
});

describe('demo workflows', () => {
  it('builds workflows from the organisation’s people and sites, once', async () => {
    const { seedDemoWorkflows } = await import('../src/modules/workflows/seed.js');
    const c = await createOrg(t, 'wfseed');
    const none = await inTenant(t.deps.db.app, c.id, (tx) => seedDemoWorkflows(tx));
    expect(none).toBe(0);
    const site = await addSite(c.id, 'Seed plant');
    expect(await inTenant(t.deps.db.app, c.id, (tx) => seedDemoWorkflows(tx))).toBe(3);
    expect(await inTenant(t.deps.db.app, c.id, (tx) => seedDemoWorkflows(tx))).toBe(0);
    const s = await signIn(t, c.subDomain, c.adminEmail);
    const list = (await call(t, s, 'GET', '/api/workflows')).json();
    expect(list.workflows).toHaveLength(3);
    for (const w of list.workflows as Wf[]) {
      expect(w.site_ids).toEqual([site]);
      expect(w.reviewers.length).toBeGreaterThan(0);
      expect(w.reviewers.some((r) => r.id === w.escalation_user?.id)).toBe(false);
    }
  });
});
