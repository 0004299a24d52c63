import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/platform/db/db.js';
import { notifications, users } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, signIn, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'alpha');
  b = await createOrg(t, 'bravo');
});
afterAll(() => t.close());

describe('the database wall', () => {
  it('connects the app as a role that cannot bypass row-level security', async () => {
    const client = new pg.Client({ connectionString: t.appUrl });
    await client.connect();
    const { rows } = await client.query('select rolsuper, rolbypassrls from pg_roles where rolname = current_user');
    await client.end();
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false });
  });

  it('returns nothing from a query that forgets to set the organisation', async () => {
    const rows = await t.deps.db.app.select().from(users);
    expect(rows).toEqual([]);
    const notes = await t.deps.db.app.select().from(notifications);
    expect(notes).toEqual([]);
    // The owner sees that the rows exist: the emptiness above is the wall, not an empty table.
    const all = await t.deps.db.owner.select().from(users);
    expect(all.length).toBeGreaterThanOrEqual(4);
  });

  it('shows one organisation only its own rows, and refuses writes into another', async () => {
    const seen = await inTenant(t.deps.db.app, a.id, (tx) => tx.select({ email: users.email }).from(users));
    expect(seen.map((r) => r.email).sort()).toEqual([a.adminEmail, a.userEmail].sort());
    await expect(
      inTenant(t.deps.db.app, a.id, (tx) => tx.insert(notifications).values({ organizationId: b.id, userId: b.adminId, title: 'x' })),
    ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/row-level security/) } });
    const changed = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx
        .update(users)
        .set({ fullName: 'hacked' })
        .where(sql`${users.id} = ${b.adminId}`)
        .returning(),
    );
    expect(changed).toEqual([]);
  });

  it('has row-level security and a policy on every table that holds organization_id', async () => {
    const { rows } = await t.deps.db.ownerPool.query<{ table_name: string; rls: boolean; policies: number }>(`
      select c.table_name, cl.relrowsecurity as rls,
        (select count(*)::int from pg_policies p where p.tablename = c.table_name) as policies
      from information_schema.columns c join pg_class cl on cl.relname = c.table_name
      where c.table_schema = 'public' and c.column_name = 'organization_id'`);
    expect(rows.length).toBeGreaterThanOrEqual(9);
    for (const row of rows) expect(row, row.table_name).toMatchObject({ rls: true });
    for (const row of rows) expect(row.policies, row.table_name).toBeGreaterThan(0);
  });
});

describe('the HTTP wall', () => {
  it('refuses a token of one organisation at another organisation’s address', async () => {
    const sa = await signIn(t, 'alpha', a.adminEmail);
    const res = await call(t, { ...sa, tenant: 'bravo' }, 'GET', '/api/users/user_profile');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'tenant_mismatch' });
    // Same through the host label instead of the header.
    const viaHost = await t.app.inject({
      method: 'GET',
      url: '/api/users/user_profile',
      headers: { host: 'bravo.localhost', authorization: `Bearer ${sa.token}` },
    });
    expect(viaHost.statusCode).toBe(401);
  });

  it('does not let organisation A’s admin read, change or detect organisation B’s rows', async () => {
    const sa = await signIn(t, 'alpha', a.adminEmail);
    const [bNote] = await inTenant(t.deps.db.app, b.id, (tx) => tx.select().from(notifications));
    expect(bNote).toBeDefined();
    const list = await call(t, sa, 'GET', '/api/v1/notifications');
    expect(JSON.stringify(list.json())).not.toContain(bNote!.id);
    const theirs = await call(t, sa, 'PATCH', `/api/v1/notifications/${bNote!.id}`, { is_read: true });
    const nobody = await call(t, sa, 'PATCH', '/api/v1/notifications/01a1ffb5-0000-7000-8000-000000000000', { is_read: true });
    // Existence is not confirmed: B's id and a made-up id get the same answer.
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(nobody.body);
    const [still] = await inTenant(t.deps.db.app, b.id, (tx) =>
      tx
        .select()
        .from(notifications)
        .where(sql`${notifications.id} = ${bNote!.id}`),
    );
    expect(still!.isRead).toBe(false);
    const profile = await call(t, sa, 'GET', '/api/users/user_profile');
    expect(profile.body).not.toContain(b.id);
    expect(profile.body).not.toContain('bravo');
  });

  it('answers an unknown organisation label with "not found"', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/authorize',
      headers: { 'x-tenant': 'nosuchorg' },
      payload: { email: 'a@b.test', password: 'x' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'tenant_not_found' });
  });
});
