import { observationCountsQuery, observationListQuery, SEARCH_COUNT_CAP } from '@bulwark/domain';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allObservations, listObservations, statusCounts } from '../src/modules/observations/list.js';
import { inTenant, type Tx } from '../src/platform/db/db.js';
import * as schema from '../src/platform/db/schema.js';
import { freshDatabase } from './helpers.js';

/**
 * Issue 13: the observation list, its counts and its keyword search at a large organisation's size read
 * through indexes. Seeds OBSERVATIONS rows in one organisation (and a quarter as many in another), runs
 * every list, count and search variant the screen and the API offer on the app role in the tenant, and
 * EXPLAINs each statement they issued: none may read the observations sequentially.
 * PLANS_ANALYZE=1 prints each statement's plan shape and time (EXPLAIN ANALYZE).
 */
const OBSERVATIONS = Number(process.env.PLANS_OBSERVATIONS ?? 50_000);
const ANALYZE = process.env.PLANS_ANALYZE === '1';
const ORG = '00000000-0000-7000-8000-0000000000a1';
const OTHER = '00000000-0000-7000-8000-0000000000b1';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let owner: pg.Client;
let appPool: pg.Pool;
let siteId = '';

const TEXTS = [
  'Operator grinding without eye protection at the fabrication bench.',
  'Forklift driver using a phone while reversing.',
  'Hydraulic oil leaking onto the walkway next to line 4.',
  'Fire exit at the paint shop blocked by empty drums.',
  'Cable across the corridor at head height near the store.',
  'Guard missing on the conveyor drive at the packing area.',
  'Spanner dropped from the mezzanine onto the walkway.',
  'New walkway markings keep people away from forklifts.',
];

/** Set-based: sites, people and categories, then the observations drawn from them, then ANALYZE. */
async function seed(c: pg.Client) {
  await c.query(`insert into organizations (id, name, sub_domain_name) values ($1, 'Big', 'plansbig'), ($2, 'Other', 'plansother')`, [
    ORG,
    OTHER,
  ]);
  await c.query(
    `insert into sites (organization_id, name, time_zone, emergency_phone, address, city, state, country, zip)
     select o, 'Site ' || k || case when k = 5 then ' Dock' else '' end, 'UTC', '1', 'a', 'c', 's', 'GB', 'z'
     from unnest($1::uuid[]) o, generate_series(1, 12) k`,
    [[ORG, OTHER]],
  );
  await c.query(
    `insert into users (organization_id, email, full_name)
     select o, 'u' || k || '@x.test', (array['Ana','Mehmet','Wei','Lucía','John','Ayşe','Li','Carlos'])[1 + k % 8] || ' Person' || k
     from unnest($1::uuid[]) o, generate_series(1, 200) k`,
    [[ORG, OTHER]],
  );
  await c.query(
    `insert into categories (organization_id, module, type, name)
     select o, 'observations', t, initcap(replace(t, '_', ' ')) || ' ' || k
     from unnest($1::uuid[]) o, unnest(array['unsafe_act','unsafe_condition','near_miss','good_practice']) t, generate_series(1, 3) k`,
    [[ORG, OTHER]],
  );
  await c.query(
    `with picks as (
       select o.id as org, o.n,
         (select array_agg(id order by id) from sites where organization_id = o.id) as sites,
         (select array_agg(id order by id) from users where organization_id = o.id) as people,
         (select array_agg(id order by type, id) from categories where organization_id = o.id) as cats
       from (values ($1::uuid, $3::int), ($2::uuid, $3::int / 4)) o(id, n)
     ), draws as (
       select p.*, g, now() - (730 * (1 - g::float8 / p.n)) * interval '1 day' as at, random() as r,
         1 + (g / 7) % 4 as t,
         case when g % 10 < 5 then 'closed' when g % 10 < 7 then 'completed' when g % 10 < 8 then 'in_progress'
              when g % 10 < 9 then 'overdue' else 'open' end as status
       from picks p, generate_series(1, p.n) g
     )
     insert into observations (organization_id, serial, type, category_id, description, site_id, observed_at, observed_local, risk_level,
       action_required, comment, anonymous, reporter_id, reporter_name, source, status, closing_remarks, closed_at, created_at)
     select org, g, (array['unsafe_act','unsafe_condition','near_miss','good_practice'])[t], cats[(t - 1) * 3 + 1 + g % 3],
       ($4::text[])[1 + g % 8] || ' Ref ' || left(md5(g::text), 8),
       sites[1 + floor(power(r, 1.6) * 12)::int], at, at at time zone 'UTC', (array['low','medium','high','critical'])[1 + g % 4], g % 2 = 0,
       (array['Area made safe on the spot.', 'Supervisor informed.', 'Discussed at the toolbox talk.'])[1 + g % 3],
       g % 20 = 0,
       case when g % 20 not in (0, 7) then people[1 + g % 200] end,
       case when g % 20 = 7 then 'Visitor ' || g end,
       case when g % 20 = 7 then 'guest' else 'staff' end,
       status, case when status = 'closed' then 'Done.' end, case when status = 'closed' then at end, at
     from draws`,
    [ORG, OTHER, OBSERVATIONS, TEXTS],
  );
  await c.query(
    `insert into observation_serials (organization_id, last_serial) select organization_id, max(serial) from observations group by 1`,
  );
  await c.query('vacuum analyze observations, observation_day_counts, sites, users, categories');
  siteId = (await busiestSite(c)) ?? '';
}

async function busiestSite(c: pg.Client): Promise<string | undefined> {
  const busiest = await c.query<{ site_id: string }>(
    'select site_id from observations where organization_id = $1 group by 1 order by count(*) desc limit 1',
    [ORG],
  );
  return busiest.rows[0]?.site_id;
}

beforeAll(async () => {
  // PLANS_DATABASE and PLANS_APP_DATABASE: the owner's and the app role's URLs of a database this test
  // seeded before, kept to look at plans again without seeding.
  const kept = process.env.PLANS_DATABASE;
  const keptApp = process.env.PLANS_APP_DATABASE;
  db = kept && keptApp ? { ownerUrl: kept, appUrl: keptApp, drop: async () => {} } : await freshDatabase();
  owner = new pg.Client({ connectionString: db.ownerUrl });
  await owner.connect();
  if (kept) siteId = (await busiestSite(owner)) ?? '';
  else await seed(owner);
  appPool = new pg.Pool({ connectionString: db.appUrl, max: 2 });
}, 600_000);

afterAll(async () => {
  await appPool?.end();
  await owner?.end();
  await db?.drop();
});

type Statement = { text: string; params: unknown[] };

/** Runs `fn` on the app role in the tenant, as a request does, and returns its result and statements. */
async function capture<T>(fn: (tx: Tx) => Promise<T>): Promise<{ result: T; statements: Statement[] }> {
  const statements: Statement[] = [];
  const app = drizzle(appPool, { schema, logger: { logQuery: (text, params) => statements.push({ text, params: [...params] }) } });
  const result = await inTenant(app, ORG, fn);
  // The transaction and the tenant setting are the wall's machinery, not the list's SQL.
  return {
    result,
    statements: statements.filter((s) => !/^\s*(begin|commit|rollback)\b/i.test(s.text) && !/set_config\('app\./.test(s.text)),
  };
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

function shape(n: PlanNode): string {
  const here = `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : n['Relation Name'] ? ` ${n['Relation Name']}` : ''}`;
  const kids = (n.Plans ?? []).map(shape);
  return kids.length ? `${here}(${kids.join(', ')})` : here;
}

/** EXPLAIN of a statement on the app role in the tenant; throws on a sequential read of observations. */
async function explain(s: Statement): Promise<{ shape: string; ms: number | null }> {
  const c = await appPool.connect();
  try {
    await c.query('begin');
    await c.query(`select set_config('app.organization_id', $1, true)`, [ORG]);
    const res = await c
      .query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time'?: number }> }>(
        `explain (format json${ANALYZE ? ', analyze' : ''}) ${s.text}`,
        s.params,
      )
      .finally(() => c.query('rollback'));
    const plan = res.rows[0]!['QUERY PLAN'][0]!;
    const all = nodes(plan.Plan);
    const seq = all.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'observations');
    expect(seq, `${s.text}\n${shape(plan.Plan)}`).toEqual([]);
    return { shape: shape(plan.Plan), ms: plan['Execution Time'] ?? null };
  } finally {
    c.release();
  }
}

async function explainAll(label: string, fn: (tx: Tx) => Promise<unknown>) {
  const { statements } = await capture(fn);
  expect(statements.length).toBeGreaterThan(0);
  for (const s of statements) {
    const { shape: plan, ms } = await explain(s);
    if (ANALYZE) console.log(`${label}\n  ${ms?.toFixed(1)} ms  ${plan}\n  ${s.text.replace(/\s+/g, ' ').slice(0, 160)}`);
  }
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

const LISTS = [
  '',
  'status=open',
  'status=overdue&page=2',
  'page=400',
  'sort=serial',
  'sort=serial&direction=asc',
  'sort=created_at',
  'sort=created_at&direction=asc',
  'sort=observed_at&direction=asc',
  'SITE&type=unsafe_condition',
  'SITE',
  'type=near_miss',
  `risk_level=high&from=${daysAgo(90)}&to=${daysAgo(0)}`,
  `status=open&from=${daysAgo(30)}&to=${daysAgo(0)}`,
  'search=forklift',
  'search=forklift&page=20',
  'search=forklift&sort=created_at',
  'search=OBS-000150',
  'search=Ana&status=open',
  'search=Dock',
  'search=Near%20miss%202',
  'search=Visitor%2017',
  'search=nothing-like-this',
  'search=forklift&SITE&status=closed',
];
const COUNTS = [
  `from=${daysAgo(30)}&to=${daysAgo(0)}`,
  `from=${daysAgo(365)}&to=${daysAgo(0)}`,
  'SITE',
  '',
  'type=good_practice',
  'search=forklift',
  'search=Ana',
];

const params = (q: string) => Object.fromEntries(new URLSearchParams(q.replace('SITE', `site_id=${siteId}`)));

describe(`observation list plans over ${OBSERVATIONS} observations of one organisation`, () => {
  it.each(LISTS)('list %s reads no observations sequentially', async (q) => {
    await explainAll(`list ${q}`, (tx) => listObservations(tx, observationListQuery.parse(params(q))));
  });

  it.each(COUNTS)('status counts %s read no observations sequentially', async (q) => {
    await explainAll(`counts ${q}`, (tx) => statusCounts(tx, observationCountsQuery.parse(params(q))));
  });

  it('the export reads no observations sequentially', async () => {
    await explainAll('export search=Ana', (tx) => allObservations(tx, observationListQuery.parse(params('search=Ana')), 500));
  });

  it("a search's two ways (read in order, or its matches collected) find the same rows", async () => {
    for (const q of [
      'search=forklift',
      'search=forklift&status=open&SITE',
      'search=Ana',
      'search=Dock&type=near_miss',
      'search=Visitor',
      'search=Visitor&sort=created_at&direction=asc',
      'search=Dock&type=near_miss&sort=serial&direction=asc',
      'search=forklift&sort=observed_at&direction=asc',
    ]) {
      const { result: page } = await capture((tx) => listObservations(tx, observationListQuery.parse(params(`${q}&per_page=200`))));
      const { result: all } = await capture((tx) => allObservations(tx, observationListQuery.parse(params(q)), 200));
      expect(
        page.observations.map((o) => o.serial),
        q,
      ).toEqual(all.map((o) => o.serial));
      const counted = await owner.query<{ n: number }>(
        `select count(*)::int as n from observations o where o.organization_id = $1 and o.id = any (array(
           select m.id from app_observation_matches($1, $2, null) m))${q.includes('status=open') ? ` and o.status = 'open'` : ''}${
             q.includes('SITE') ? ` and o.site_id = '${siteId}'` : ''
           }${q.includes('near_miss') ? ` and o.type = 'near_miss'` : ''}`,
        [ORG, `%${new URLSearchParams(q).get('search')}%`],
      );
      // A search counts at most SEARCH_COUNT_CAP matches; past it the total says "at least".
      const n = counted.rows[0]!.n;
      expect(page.total, q).toBe(Math.min(n, SEARCH_COUNT_CAP));
      expect(page.totalCapped, q).toBe(n > SEARCH_COUNT_CAP);
    }
  });

  it("the capped search (migration 0220) matches exactly the rows of 0210's, each once, and stops at its limit", async () => {
    for (const word of ['forklift', 'Ana', 'Dock', 'Visitor', 'Near miss 2', 'OBS-000150', 'toolbox', 'nothing-like-this']) {
      const pattern = `%${word}%`;
      const serial = /^OBS-0*(\d+)$/.exec(word)?.[1] ?? null;
      const old = await owner.query<{ id: string }>('select m.id from app_observation_matches($1, $2, $3) m', [ORG, pattern, serial]);
      const capped = await owner.query<{ id: string }>(
        'select m.id from app_observation_search($1, $2, $3, null, null, null, null, null, null, null, 1000000) m',
        [ORG, pattern, serial],
      );
      const ids = capped.rows.map((r) => r.id);
      expect(new Set(ids).size, word).toBe(ids.length);
      expect([...ids].sort(), word).toEqual(old.rows.map((r) => r.id).sort());
      const first = await owner.query<{ n: number }>(
        'select count(*)::int as n from app_observation_search($1, $2, $3, null, null, null, null, null, null, null, 7) m',
        [ORG, pattern, serial],
      );
      expect(first.rows[0]!.n, word).toBe(Math.min(7, ids.length));
    }
  });

  it('a search matches description, comment, site, category, guest and staff names, serial; never an anonymous name', async () => {
    // The total as the list answers it: exact up to SEARCH_COUNT_CAP, past it the cap and "at least".
    const total = async (q: string) => {
      const { total: n, totalCapped } = (await capture((tx) => listObservations(tx, observationListQuery.parse(params(q))))).result;
      return totalCapped ? `${n}+` : `${n}`;
    };
    const truth = async (where: string) => {
      const { n } = (
        await owner.query<{ n: number }>(`select count(*)::int as n from observations o where o.organization_id = $1 and (${where})`, [ORG])
      ).rows[0]!;
      return n > SEARCH_COUNT_CAP ? `${SEARCH_COUNT_CAP}+` : `${n}`;
    };
    expect(await total('search=forklift')).toBe(await truth(`o.description ilike '%forklift%'`));
    expect(await total('search=toolbox')).toBe(await truth(`o.comment ilike '%toolbox%'`));
    expect(await total('search=OBS-000150')).toBe('1');
    expect(await total('search=Visitor%2017')).toBe(await truth(`o.reporter_name ilike '%Visitor 17%'`));
    expect(await total('search=Dock')).toBe(await truth(`o.site_id in (select id from sites where name like '%Dock')`));
    expect(await total('search=Near%20miss%202')).toBe(
      await truth(`o.category_id in (select id from categories where name = 'Near Miss 2')`),
    );
    // Ana's reports, but not those filed anonymously (the seed files none with a reporter, so equal).
    expect(await total('search=Ana%20Person')).toBe(
      await truth(`not o.anonymous and o.reporter_id in (select id from users where full_name like 'Ana Person%')`),
    );
  });
});
