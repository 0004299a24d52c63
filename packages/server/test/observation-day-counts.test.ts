import { OBSERVATION_STATUSES } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/seed.js';
import { call, createTestApp, signIn, type TestApp } from './helpers.js';

// The list's totals and status tabs read observation_day_counts (migration 0130), kept by a trigger.
// Whatever happens to observations, the counts must equal counting the observations themselves.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.deps.db.app);
});
afterAll(() => t.close());

async function mismatches(): Promise<unknown[]> {
  const res = await t.deps.db.owner.execute(sql`
    with truth as (
      select organization_id, observed_local::date as day, status, count(*)::int as n from observations group by 1, 2, 3
    )
    select coalesce(t.organization_id, c.organization_id) as org, coalesce(t.day, c.day) as day,
           coalesce(t.status, c.status) as status, t.n as counted, c.n as kept
    from truth t full join (select * from observation_day_counts where n <> 0) c
      on c.organization_id = t.organization_id and c.day = t.day and c.status = t.status
    where t.n is distinct from c.n`);
  return res.rows;
}

describe('observation day counts', () => {
  it('equal a count of the observations after creates, status and date changes, removals', async () => {
    const seeded = await t.deps.db.owner.execute(sql`select count(*)::int as n from observations`);
    expect((seeded.rows[0] as { n: number }).n).toBeGreaterThan(0);
    expect(await mismatches()).toEqual([]);

    await t.deps.db.owner.execute(
      sql`update observations set status = case when status = 'closed' then status when serial % 2 = 0 then 'overdue' else 'in_progress' end`,
    );
    expect(await mismatches()).toEqual([]);
    await t.deps.db.owner.execute(sql`update observations set observed_local = observed_local - interval '3 days' where serial % 3 = 0`);
    expect(await mismatches()).toEqual([]);
    await t.deps.db.owner.execute(
      sql`update observations set status = case when status = 'closed' then status else 'open' end, observed_local = observed_local + interval '1 day' where serial % 5 = 0`,
    );
    expect(await mismatches()).toEqual([]);
    await t.deps.db.owner.execute(
      sql`delete from observations where serial % 7 = 0 and not exists (select 1 from actions a where a.source_id = observations.id)`,
    );
    expect(await mismatches()).toEqual([]);
  });

  it('the list totals of every status tab and of a date range equal the observations counted', async () => {
    const demo = await signIn(t, 'demo', 'admin@demo.test', 'Demo#2026!');
    const count = async (where: ReturnType<typeof sql>) => {
      const res = await t.deps.db.owner.execute(
        sql`select count(*)::int as n from observations o join organizations g on g.id = o.organization_id where g.sub_domain_name = 'demo' and ${where}`,
      );
      return (res.rows[0] as { n: number }).n;
    };
    const total = async (query: string) => {
      const res = await call(t, demo, 'GET', `/api/v2/observations?${query}`);
      expect(res.statusCode, query).toBe(200);
      return (res.json() as { pagination: { total: number } }).pagination.total;
    };
    expect(await total('')).toBe(await count(sql`true`));
    for (const status of OBSERVATION_STATUSES) {
      expect(await total(`status=${status}`), status).toBe(await count(sql`o.status = ${status}`));
    }
    const [from, to] = ['2020-01-01', new Date().toISOString().slice(0, 10)];
    expect(await total(`from=${from}&to=${to}`)).toBe(await count(sql`o.observed_local::date between ${from}::date and ${to}::date`));
  });
});
