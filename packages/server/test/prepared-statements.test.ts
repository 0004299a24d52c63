import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, inTenant, pageInlined, preparedName, type Database } from '../src/platform/db/db.js';
import { users } from '../src/platform/db/schema.js';
import { createOrg, createTestApp, type TestApp } from './helpers.js';

/**
 * The app pool sends a parameterised statement it has seen a few times as a named (prepared) one
 * (platform/db/db.ts): PostgreSQL then keeps its parsed form, and in time a generic plan, per connection.
 * Row-level security must still be judged per execution: the organisation is a setting read when the
 * statement runs, never a value frozen into a cached plan.
 */

let t: TestApp;
let single: Database;
const orgs: { id: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  for (const label of ['prepa', 'prepb']) {
    const org = await createOrg(t, label);
    orgs.push({ id: org.id });
  }
  // One connection, so that every statement below meets the same backend and its prepared statements.
  single = connect(t.appUrl, t.ownerUrl, 1);
});

afterAll(async () => {
  await single?.close();
  await t?.close();
});

describe('prepared statements on the app pool', () => {
  it('names a statement from its third sighting on, with the same name for the same text', () => {
    const text = `select ${Math.random()} where $1::int = 1`;
    expect(preparedName(text)).toBeUndefined();
    expect(preparedName(text)).toBeUndefined();
    const name = preparedName(text);
    expect(name).toMatch(/^b[\w-]+$/);
    expect(preparedName(text)).toBe(name);
    expect(preparedName(`${text} `)).toBeUndefined();
  });

  it('names a page with its LIMIT and OFFSET written in, so that a generic plan knows how many rows are wanted', async () => {
    for (let i = 0; i < 5; i++)
      await inTenant(single.app, orgs[0]!.id, (tx) =>
        tx.select({ email: users.email }).from(users).orderBy(users.email).limit(2).offset(1),
      );
    const prepared = await inTenant(single.app, orgs[0]!.id, (tx) =>
      tx.execute(sql`select statement from pg_prepared_statements where statement ilike '%"users"%limit%'`),
    );
    expect(prepared.rows.map((r) => String(r.statement))).toEqual([expect.stringMatching(/limit 2 offset 1$/)]);
  });

  it('writes in only whole numbers that are the last parameters, and leaves any other page as it is', () => {
    expect(pageInlined('select a from t where b = $1 limit $2 offset $3', ['x', 25, '50'])).toEqual({
      text: 'select a from t where b = $1 limit 25 offset 50',
      params: ['x'],
    });
    expect(pageInlined('select a from t where b = $1', ['x'])).toEqual({ text: 'select a from t where b = $1', params: ['x'] });
    // Not the last parameter: writing it in would leave a gap in the numbering.
    expect(pageInlined('select a from t limit $1 offset $2 where b = $3', [1, 2, 'x'])).toBeNull();
    // Not a whole number (a text that would otherwise land in the SQL).
    expect(pageInlined('select a from t where b = $1 limit $2', ['x', '1; drop table t'])).toBeNull();
    expect(pageInlined('select a from t where b = $1 limit $2', ['x', -1])).toBeNull();
    expect(pageInlined('select a from t where b = $1 limit $2', ['x', 2.5])).toBeNull();
  });

  it('runs a prepared statement once per connection and answers each organisation with its own rows only', async () => {
    // Alternating organisations, well past the five custom plans after which PostgreSQL may go generic.
    for (let i = 0; i < 16; i++) {
      const org = orgs[i % 2]!;
      const rows = await inTenant(single.app, org.id, (tx) =>
        tx
          .select({ email: users.email, organizationId: users.organizationId })
          .from(users)
          .where(sql`${users.email} <> ${'nobody'}`),
      );
      expect(rows.length).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.organizationId))).toEqual(new Set([org.id]));
      expect(rows.every((r) => r.email.endsWith(i % 2 ? '@prepb.test' : '@prepa.test'))).toBe(true);
    }
    const prepared = await inTenant(single.app, orgs[0]!.id, (tx) =>
      tx.execute(
        sql`select name, generic_plans + custom_plans as runs from pg_prepared_statements where statement like '%"users"%' and statement not like '%limit%'`,
      ),
    );
    expect(prepared.rows).toHaveLength(1);
    expect(String(prepared.rows[0]!.name)).toMatch(/^b/);
    // Prepared on the third sighting: the fourteen after it ran it by name.
    expect(Number(prepared.rows[0]!.runs)).toBe(14);
  });

  it('prepares statements without parameters too, and leaves texts of several statements to the simple protocol', async () => {
    for (let i = 0; i < 4; i++) {
      await inTenant(single.app, orgs[0]!.id, (tx) => tx.execute(sql`select count(*) from users`));
      await inTenant(single.app, orgs[0]!.id, (tx) => tx.execute(sql`select 1 as a; select 2 as b`));
    }
    const prepared = await inTenant(single.app, orgs[0]!.id, (tx) =>
      tx.execute(
        sql`select count(*) filter (where statement like '%count(*) from users%')::int as counted, count(*) filter (where statement like '%select 2 as b%')::int as several from pg_prepared_statements`,
      ),
    );
    expect(prepared.rows[0]).toEqual({ counted: 1, several: 0 });
  });
});
