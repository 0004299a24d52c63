import { ACTION_LIST_ENDPOINTS, actionsApi, type ActionListKind } from '@bulwark/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

/**
 * Issue 13, "no list, count or search query reads an organisation's observations or actions
 * sequentially": at a large organisation's size (PLANS_ROWS observations and as many actions, and safety
 * interactions), every list route is called over HTTP with each tab, filter, sort and search the screens
 * offer; every SELECT the request sent is captured (a hook on node-postgres' Client#query) and EXPLAINed
 * on the app role in the tenant, as the request ran it. A Seq Scan of observations, actions or
 * safety_interactions fails the variant. PLANS_PRINT=1 prints each plan's shape.
 */
const ROWS = Number(process.env.PLANS_ROWS ?? 50_000);
const PRINT = process.env.PLANS_PRINT === '1';
const WATCHED = ['observations', 'actions', 'safety_interactions'];

let t: TestApp;
let admin: Session;
let orgId = '';
let siteId = '';
let personId = '';
let appRole = '';
/** The owner's connection the plans are taken on (auto_explain needs a superuser to load and set it). */
let planner: pg.Client;
let autoExplain = false;

/* ---- Capturing what a request sends ---- */

type Statement = { text: string; params: unknown[] };
let recording: Statement[] | null = null;
type LooseQuery = (this: pg.Client, ...args: unknown[]) => unknown;
const originalQuery = pg.Client.prototype.query as unknown as LooseQuery;

function hookQueries() {
  const hooked: LooseQuery = function (this: pg.Client, ...args: unknown[]) {
    if (recording && this.user === appRole) {
      const [first, second] = args;
      // query(text, values) or query(config, values): drizzle passes its values apart from the config.
      const config = typeof first === 'string' ? { text: first, values: undefined } : (first as { text?: string; values?: unknown });
      const values = config.values ?? second;
      if (config.text) recording.push({ text: config.text, params: Array.isArray(values) ? [...(values as unknown[])] : [] });
    }
    return originalQuery.apply(this, args);
  };
  pg.Client.prototype.query = hooked as unknown as typeof pg.Client.prototype.query;
}

function unhookQueries() {
  pg.Client.prototype.query = originalQuery as unknown as typeof pg.Client.prototype.query;
}

/* ---- The organisation at size, set-based ---- */

async function seed(owner: pg.Client, org: string, n: number) {
  const started = Date.now();
  const step = (what: string) => PRINT && console.log(`  seed ${n}: ${what} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await owner.query(`update organizations set subscription_type = 'active', trial_ends_at = null where id = $1`, [org]);
  await owner.query(
    `insert into sites (organization_id, name, time_zone, emergency_phone, address, city, state, country, zip)
     select $1::uuid, 'Site ' || k || case when k = 5 then ' Dock' else '' end, 'UTC', '1', 'a', 'c', 's', 'GB', 'z' from generate_series(1, 12) k`,
    [org],
  );
  await owner.query(
    `insert into users (organization_id, email, full_name)
     select $1::uuid, 'p' || k || '@' || left($1::text, 8) || '.test', (array['Ana','Mehmet','Wei','Lucía','John','Ayşe','Li','Carlos'])[1 + k % 8] || ' Person' || k
     from generate_series(1, 200) k`,
    [org],
  );
  await owner.query(
    `insert into categories (organization_id, module, type, name)
     select $1::uuid, 'observations', t, initcap(replace(t, '_', ' ')) || ' ' || k
     from unnest(array['unsafe_act','unsafe_condition','near_miss','good_practice']) t, generate_series(1, 3) k
     union all select $1::uuid, 'actions', t, initcap(t) from unnest(array['corrective','preventive','improvement']) t`,
    [org],
  );
  const picks = `(select array_agg(id order by id) from sites where organization_id = $1) as sites,
    (select array_agg(id order by id) from users where organization_id = $1 and email like 'p%') as people`;
  await owner.query(
    `with p as (select ${picks},
       (select array_agg(id order by type, id) from categories where organization_id = $1 and module = 'observations') as cats),
     d as (select p.*, g, now() - (730 * (1 - g::float8 / $2::int)) * interval '1 day' as at, random() as r, 1 + (g / 7) % 4 as t,
       case when g % 10 < 5 then 'closed' when g % 10 < 7 then 'completed' when g % 10 < 8 then 'in_progress'
            when g % 10 < 9 then 'overdue' else 'open' end as status
       from p, generate_series(1, $2::int) g)
     insert into observations (organization_id, serial, type, category_id, description, site_id, observed_at, observed_local, risk_level,
       action_required, comment, anonymous, reporter_id, reporter_name, source, status, closing_remarks, closed_at, created_at)
     select $1::uuid, g, (array['unsafe_act','unsafe_condition','near_miss','good_practice'])[t], cats[(t - 1) * 3 + 1 + g % 3],
       (array['Forklift driver using a phone while reversing.', 'Guard missing on the conveyor drive.', 'Cable across the corridor.',
         'Fire exit blocked by empty drums.'])[1 + g % 4] || ' Ref ' || left(md5(g::text), 8),
       sites[1 + floor(power(r, 1.6) * 12)::int], at, at at time zone 'UTC', (array['low','medium','high','critical'])[1 + g % 4], g % 2 = 0,
       (array['Area made safe.', 'Supervisor informed.', 'Discussed at the toolbox talk.'])[1 + g % 3], g % 20 = 0,
       case when g % 20 not in (0, 7) then people[1 + g % 200] end, case when g % 20 = 7 then 'Visitor ' || g end,
       case when g % 20 = 7 then 'guest' else 'staff' end,
       status, case when status = 'closed' then 'Done.' end, case when status = 'closed' then at end, at
     from d`,
    [org, n],
  );
  await owner.query(
    `with p as (select ${picks}),
     d as (select p.*, g, now() - (730 * (1 - g::float8 / ($2::int / 2))) * interval '1 day' as at, random() as r from p, generate_series(1, $2::int / 2) g)
     insert into safety_interactions (organization_id, serial, status, observer_id, site_id, held_at, held_on, duration_minutes, crew, topics,
       recognition_given, comment, created_by, created_at, completed_at)
     select $1::uuid, g, case when g % 20 = 0 then 'draft' else 'completed' end, people[1 + g % 200], sites[1 + floor(power(r, 1.6) * 12)::int],
       at, (at at time zone 'UTC')::date, 30, case when g % 3 = 0 then 'Night shift' end,
       array[(array['ppe','housekeeping','line_of_fire','procedures'])[1 + g % 4]], g % 3 = 0,
       case when g % 2 = 0 then 'Forklift route discussed with the drivers.' end, people[1 + g % 200], at,
       case when g % 20 <> 0 then at end
     from d`,
    [org, n],
  );
  await owner.query(
    `insert into si_participants (organization_id, interaction_id, position, name)
     select organization_id, id, 0, 'Crew member ' || serial from safety_interactions where organization_id = $1`,
    [org],
  );
  await owner.query(
    `insert into si_behaviours (organization_id, interaction_id, kind, position, topic, note)
     select organization_id, id, case when serial % 2 = 0 then 'safe' else 'at_risk' end, 0, topics[1], 'Stood in the line of fire.'
     from safety_interactions where organization_id = $1 and status = 'completed'`,
    [org],
  );
  step('observations and safety interactions');
  // Actions of every source: observations, safety interactions, audits and incidents (their records are
  // not seeded: no foreign key) and stand-alone ones.
  await owner.query(
    `with p as (select ${picks},
       (select array_agg(id order by id) from categories where organization_id = $1 and module = 'actions') as cats),
     d as (select p.*, g, now() - (730 * (1 - g::float8 / $2::int)) * interval '1 day' as at, random() as r,
       (array['observation','observation','observation','safety_interaction','other','audit','incident'])[1 + g % 7] as src,
       (array['open','in_progress','overdue','completed','closed','closed'])[1 + (g / 7) % 6] as st
       from p, generate_series(1, $2::int) g)
     insert into actions (organization_id, serial, source_type, source_id, site_id, description, control_type, category_id, responsible_id,
       due_date, status, remarks, completed_at, closed_at, created_by, created_at)
     select $1::uuid, d.g, d.src,
       case d.src when 'observation' then o.id when 'safety_interaction' then si.id when 'other' then null else gen_random_uuid() end,
       d.sites[1 + floor(power(d.r, 1.6) * 12)::int],
       (array['Fit a guard and check it weekly.', 'Brief the crew at the next toolbox talk.', 'Mark the walkway and add a barrier.'])[1 + d.g % 3],
       (array['elimination','substitution','engineering','administrative','ppe'])[1 + d.g % 5], d.cats[1 + d.g % 3], d.people[1 + d.g % 200],
       case when d.st = 'overdue' then current_date - 1 - d.g % 20 else (d.at + interval '14 days')::date end,
       d.st, case when d.st in ('completed', 'closed') then 'Done as agreed.' end,
       case when d.st in ('completed', 'closed') then d.at + interval '3 days' end, case when d.st = 'closed' then d.at + interval '4 days' end,
       d.people[1 + d.g % 200], d.at
     from d
     -- Sources by serial (the arrays of sites and people are small; tens of thousands of ids are joined instead).
     left join observations o on o.organization_id = $1 and o.serial = 1 + d.g % $2::int
     left join safety_interactions si on si.organization_id = $1 and si.serial = 1 + d.g % ($2::int / 2)`,
    [org, n],
  );
  step('actions');
  // Attachments (rows only): the observation list shows how many each has.
  await owner.query(
    `with f as (insert into files (organization_id, purpose, file_name, mime_type, size_bytes, storage_key, created_at)
       select $1::uuid, 'attachment', 'photo-' || serial || '.jpg', 'image/jpeg', 1000, 'plans/' || serial, created_at
       from observations where organization_id = $1 and serial % 5 = 0 returning id, file_name)
     insert into observation_attachments (organization_id, observation_id, file_id)
     select $1::uuid, o.id, f.id from f join observations o on o.organization_id = $1 and f.file_name = 'photo-' || o.serial || '.jpg'`,
    [org],
  );
  for (const [table, counter] of [
    ['observations', 'observation_serials'],
    ['actions', 'action_serials'],
    ['safety_interactions', 'si_counters'],
  ]) {
    await owner.query(
      `insert into ${counter} (organization_id, last_serial) select $1::uuid, max(serial) from ${table} where organization_id = $1
       on conflict (organization_id) do update set last_serial = excluded.last_serial`,
      [org],
    );
  }
}

/** Drops the plain (non-constraint) indexes of `tables`; answers their definitions, to build them again. */
async function dropIndexes(owner: pg.Client, tables: string[]): Promise<string[]> {
  const defs = await owner.query<{ name: string; def: string }>(
    `select i.indexname as name, i.indexdef as def from pg_indexes i
     where i.schemaname = 'public' and i.tablename = any($1)
       and not exists (select 1 from pg_constraint k where k.conname = i.indexname)`,
    [tables],
  );
  for (const d of defs.rows) await owner.query(`drop index "${d.name}"`);
  return defs.rows.map((d) => d.def);
}

/** The counters the skipped triggers keep (migrations 0130 and 0211), from the rows. */
async function recount(owner: pg.Client) {
  await owner.query(`delete from observation_day_counts`);
  await owner.query(`insert into observation_day_counts (organization_id, day, status, n)
    select organization_id, observed_local::date, status, count(*) from observations group by 1, 2, 3`);
  for (const [counts, rows] of [
    ['action_counts', 'actions'],
    // One row per topic of each interaction, and one with topic '' for the interaction itself (migration 0212).
    [
      'safety_interaction_counts',
      `(select organization_id, site_id, status, '' as topic from safety_interactions
        union all select i.organization_id, i.site_id, i.status, t.topic from safety_interactions i cross join lateral unnest(i.topics) t(topic)) x`,
    ],
  ]) {
    const columns = (
      await owner.query<{ name: string }>(
        `select column_name as name from information_schema.columns where table_schema = 'public' and table_name = $1 and column_name <> 'n'
         order by ordinal_position`,
        [counts],
      )
    ).rows.map((r) => `"${r.name}"`);
    if (columns.length === 0) continue;
    await owner.query(`delete from ${counts}`);
    await owner.query(
      `insert into ${counts} (${columns.join(', ')}, n) select ${columns.join(', ')}, count(*) from ${rows} group by ${columns.join(', ')}`,
    );
  }
}

beforeAll(async () => {
  const started = Date.now();
  t = await createTestApp();
  if (PRINT) console.log(`app on a migrated database in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  appRole = decodeURIComponent(new URL(t.appUrl).username);
  const big = await createOrg(t, 'plansbig');
  const other = await createOrg(t, 'plansother');
  orgId = big.id;
  const owner = new pg.Client({ connectionString: t.ownerUrl });
  await owner.connect();
  try {
    // The generator builds every reference from rows it just wrote: foreign-key checks and the counters'
    // triggers are skipped when the owner may (a superuser), and the counters are filled once at the end.
    const replica = await owner.query('set session_replication_role = replica').then(
      () => true,
      () => false,
    );
    // Indexes are built once at the end rather than entry by entry (the trigram ones above all).
    const indexes = await dropIndexes(owner, WATCHED);
    await seed(owner, big.id, ROWS);
    // Another tenant, a tenth the size: the planner sees more than one organisation.
    await seed(owner, other.id, Math.floor(ROWS / 10));
    for (const def of indexes) await owner.query(def);
    if (replica) {
      await owner.query('set session_replication_role = origin');
      await recount(owner);
    }
    await owner.query('vacuum analyze');
    const site = await owner.query<{ site_id: string }>(
      'select site_id from observations where organization_id = $1 group by 1 order by count(*) desc limit 1',
      [orgId],
    );
    siteId = site.rows[0]!.site_id;
    const person = await owner.query<{ id: string }>(
      'select responsible_id as id from actions where organization_id = $1 group by 1 order by count(*) desc limit 1',
      [orgId],
    );
    personId = person.rows[0]!.id;
  } finally {
    await owner.end();
  }
  admin = await signIn(t, 'plansbig', big.adminEmail);
  planner = new pg.Client({ connectionString: t.ownerUrl });
  await planner.connect();
  autoExplain = await planner.query(`load 'auto_explain'`).then(
    () => true,
    () => false,
  );
  hookQueries();
}, 300_000);

afterAll(async () => {
  unhookQueries();
  await planner?.end();
  await t?.close();
});

/* ---- EXPLAIN ---- */

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

function shape(n: PlanNode): string {
  const here = `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : n['Relation Name'] ? ` ${n['Relation Name']}` : ''}`;
  const kids = (n.Plans ?? []).map(shape);
  return kids.length ? `${here}(${kids.join(', ')})` : here;
}

/**
 * The plans of a statement as the request ran it: on the app role with the tenant set. auto_explain
 * (loaded on the owner's connection, then the role switched) logs every plan the statement executes,
 * the nested ones too: a search runs inside a SECURITY DEFINER function, whose plan a plain EXPLAIN hides
 * behind a Function Scan. The logs reach the client as notices (client_min_messages = log). Without
 * auto_explain, a plain EXPLAIN.
 */
async function plans(s: Statement): Promise<PlanNode[]> {
  const c = planner;
  const logged: PlanNode[] = [];
  const onNotice = (m: { message?: string }) => {
    const text = m.message ?? '';
    const at = text.indexOf('{');
    if (/plan:/.test(text) && at >= 0) logged.push((JSON.parse(text.slice(at)) as { Plan: PlanNode }).Plan);
  };
  await c.query('begin');
  try {
    if (autoExplain) {
      await c.query(`set local auto_explain.log_min_duration = 0; set local auto_explain.log_nested_statements = on;
        set local auto_explain.log_format = 'json'; set local client_min_messages = 'log'`);
    }
    await c.query(`set local role "${appRole}"`);
    await c.query(`select set_config('app.organization_id', $1, true)`, [orgId]);
    if (!autoExplain) {
      const res = await c.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`explain (format json) ${s.text}`, s.params);
      return [res.rows[0]!['QUERY PLAN'][0]!.Plan];
    }
    c.on('notice', onNotice);
    await c.query(s.text, s.params);
  } finally {
    // An unnamed portal ends (and auto_explain logs the statement's own plan) at the next statement.
    await c.query('rollback');
    c.off('notice', onNotice);
  }
  return logged.filter((p) => !nodes(p).every((n) => n['Node Type'] === 'Result'));
}

/** Calls the route, then plans each SELECT it sent; answers the sequential reads of the watched tables. */
async function sequentialReads(url: string): Promise<string[]> {
  recording = [];
  const res = await call(t, admin, 'GET', url);
  const sent = recording;
  recording = null;
  expect([200, 202], `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`).toContain(res.statusCode);
  const reads = sent.filter((s) => /^\s*(select|with)\b/i.test(s.text) && !/set_config\(/.test(s.text));
  const found: string[] = [];
  let planned = 0;
  for (const s of reads) {
    for (const p of await plans(s)) {
      planned += 1;
      const all = nodes(p);
      if (!all.some((n) => WATCHED.includes(n['Relation Name'] ?? ''))) continue;
      if (PRINT) console.log(`${url}\n  ${shape(p)}\n  ${s.text.replace(/\s+/g, ' ').slice(0, 200)}`);
      for (const n of all.filter((x) => x['Node Type'] === 'Seq Scan' && WATCHED.includes(x['Relation Name'] ?? '')))
        found.push(`Seq Scan on ${n['Relation Name']}: ${shape(p)}\n    ${s.text.replace(/\s+/g, ' ').slice(0, 400)}`);
    }
  }
  // The capture itself works: the request's statements were seen and planned.
  expect(planned, `${url}: no statement captured or planned`).toBeGreaterThan(0);
  return found;
}

/* ---- Every variant of every list ---- */

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const QUARTER = `from=${daysAgo(90)}&to=${daysAgo(0)}`;
/** SITE and PERSON stand for the busiest site and responsible person, known once seeded. */
const fill = (url: string) => url.replace('SITE', `site_id=${siteId}`).replace('PERSON', personId);

const OBSERVATION_LISTS = [
  ...['all', 'open', 'in_progress', 'completed', 'closed', 'overdue'].map((s) => `status=${s}`),
  'SITE',
  'type=near_miss',
  'risk_level=critical',
  QUARTER,
  'SITE&type=unsafe_condition&status=open',
  `risk_level=high&${QUARTER}`,
  ...['observed_at', 'serial', 'created_at'].flatMap((sort) => [`sort=${sort}&direction=desc`, `sort=${sort}&direction=asc`]),
  'sort=created_at&status=closed',
  'status=overdue&page=2',
  'page=400',
  'search=forklift',
  'search=forklift&page=20',
  'search=forklift&sort=created_at',
  'search=OBS-000150',
  'search=Ana&status=open',
  'search=Dock',
  'search=Visitor%2017',
  'search=nothing-like-this',
  'search=forklift&SITE&status=closed',
  // The export of a narrow filter (written in the request) and of every row (started as a job past the inline limit).
  'export_to_excel=true&search=OBS-000150',
  'export_to_excel=true&SITE&type=near_miss&status=open',
  'export_to_excel=true',
].map((q) => `/api/v2/observations?${q}`);

const OBSERVATION_COUNTS = [
  '',
  `from=${daysAgo(30)}&to=${daysAgo(0)}`,
  `from=${daysAgo(365)}&to=${daysAgo(0)}`,
  'SITE',
  'type=good_practice',
  'search=forklift',
  'search=Ana',
].map((q) => `/api/v2/observations/period_status_counts?${q}`);

const actionPath = (kind: ActionListKind) => actionsApi[ACTION_LIST_ENDPOINTS[kind]].path;
const ACTION_LISTS = [
  ...(Object.keys(ACTION_LIST_ENDPOINTS) as ActionListKind[]).flatMap((kind) =>
    ['', 'status=open', 'status=overdue', 'status=closed', 'search=guard'].map((q) => `${actionPath(kind)}?${q}`),
  ),
  ...[
    'status=in_progress',
    'status=completed',
    'SITE',
    'responsible_id=PERSON',
    'control_type=engineering&status=overdue',
    `due_from=${daysAgo(30)}&due_to=${daysAgo(-30)}`,
    'source_type=incident',
    'page=300',
    'per_page=1',
    'search=%23120',
    'search=Mehmet&status=open',
    'search=Dock',
    'search=barrier&SITE',
    'export_to_excel=true&search=%23120',
  ].map((q) => `${actionPath('all')}?${q}`),
];

const SAFETY_INTERACTION_LISTS = [
  '',
  'status=completed',
  'status=draft',
  'SITE',
  'observer_id=PERSON',
  'topic=line_of_fire',
  QUARTER,
  'page=300',
  'search=forklift',
  'search=SI-000120',
  'search=Crew%20member%2033',
  'search=line%20of%20fire',
  'export_to_excel=true&search=SI-000120',
].map((q) => `/api/safety_interactions?${q}`);

describe(`list plans at ${ROWS.toLocaleString('en')} observations, as many actions and half as many safety interactions`, () => {
  it('sees a sequential read when there is one (the check itself works)', async () => {
    const found = (await plans({ text: `select count(*) from observations where length(description) > $1`, params: [3] })).flatMap(nodes);
    expect(found.some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'observations')).toBe(true);
  });

  it.each([...OBSERVATION_LISTS, ...OBSERVATION_COUNTS, ...ACTION_LISTS, ...SAFETY_INTERACTION_LISTS])(
    '%s reads no observations, actions or safety interactions sequentially',
    async (url) => {
      expect(await sequentialReads(fill(url))).toEqual([]);
    },
  );
});
