import { actionListQuerySchema, SEARCH_COUNT_CAP, siListQuerySchema, type ActionListKind } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../src/modules/index.js';
import { listActions, myActionCounts } from '../src/modules/actions/queries.js';
import { listInteractions } from '../src/modules/safety-interactions/service.js';
import { inTenant, type Tx } from '../src/platform/db/db.js';
import * as schema from '../src/platform/db/schema.js';
import { createOrg, createTestApp, type TestApp } from './helpers.js';

// Issue 13: the action lists, their tab counts and the safety interaction list at a large organisation's
// size (migrations 0211, 0212). Every statement a list issues is explained as the app runs it (the app
// role, the tenant set, row-level security on): none may read an organisation's actions or safety
// interactions with a sequential scan. The kept counts must equal counting the rows themselves.

const ACTIONS = 50_000;
const INTERACTIONS = 50_000;

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let pool: pg.Pool;
let site: string;

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'plans');
  // Set-based, in one transaction without row triggers (replica: a minute of per-row counter upserts
  // saved); the kept counts are then counted once, and the triggers are checked by the last test.
  await t.deps.db.owner.transaction(async (owner) => {
    await owner.execute(sql`set local session_replication_role = replica`);
    await seed(owner);
  });
  const owner = t.deps.db.owner;
  await owner.execute(sql`select app_refill_action_counts(), app_refill_safety_interaction_counts()`);
  await owner.execute(
    sql`vacuum analyze actions, action_counts, safety_interactions, safety_interaction_counts, si_participants, si_behaviours, users, sites`,
  );
  site = ((await owner.execute(sql`select id from sites where organization_id = ${org.id} order by id limit 1`)).rows[0] as { id: string })
    .id;
  pool = new pg.Pool({ connectionString: t.appUrl, max: 1 });
}, 180_000);

/** Ten sites, 200 more people, the actions of every source and the interactions with their people and behaviours. */
async function seed(owner: Tx) {
  await owner.execute(sql`
    insert into sites (organization_id, name, time_zone, emergency_phone, address, city, state, country, zip)
    select ${org.id}, 'Plant ' || g, 'Europe/Istanbul', '+90 212 000 00 00', 'Road ' || g, 'Istanbul', 'TR', 'TR', '34000'
    from generate_series(1, 10) g`);
  await owner.execute(sql`
    insert into users select (jsonb_populate_record(null::users, to_jsonb(u) || jsonb_build_object(
      'id', uuid_generate_v7(), 'email', 'person' || g || '@plans.test', 'full_name', 'Person ' || g, 'is_admin', false))).*
    from users u cross join generate_series(1, 200) g where u.id = ${org.adminId}`);
  // The people and sites numbered from 0, to spread the rows over them.
  const p = sql`(select row_number() over (order by id) - 1 as k, id from users where organization_id = ${org.id}) p`;
  const s = sql`(select row_number() over (order by id) - 1 as k, id from sites where organization_id = ${org.id}) s`;
  const spread = sql`join ${p} on p.k = g % 202 join ${s} on s.k = g % 10`;
  await owner.execute(sql`
    insert into safety_interactions (organization_id, serial, status, observer_id, site_id, location, held_at, held_on,
      duration_minutes, crew, topics, recognition_given, comment, created_by, completed_at)
    select ${org.id}, g, case when g % 10 = 0 then 'draft' else 'completed' end, p.id, s.id, 'Bay ' || (g % 40),
      now() - (g % 730) * interval '1 day', (now() - (g % 730) * interval '1 day')::date, 30, 'Crew ' || (g % 50),
      string_to_array((array['ppe', 'housekeeping,line_of_fire', 'working_at_height', 'procedures', 'vehicles_traffic'])[1 + g % 5], ','),
      g % 3 = 0, 'Talk ' || g, p.id, case when g % 10 <> 0 then now() end
    from generate_series(1, ${INTERACTIONS}::int) g
    ${spread}`);
  await owner.execute(sql`
    insert into si_participants (organization_id, interaction_id, position, name)
    select organization_id, id, 0, 'Worker ' || serial from safety_interactions where organization_id = ${org.id}`);
  await owner.execute(sql`
    insert into si_behaviours (organization_id, interaction_id, kind, position, topic, note)
    select organization_id, id, 'safe', 0, 'ppe', 'Wore gloves ' || serial from safety_interactions where organization_id = ${org.id}`);
  await owner.execute(sql`
    insert into actions (organization_id, serial, source_type, source_id, site_id, description, control_type, responsible_id,
      due_date, status, completed_at, closed_at, remarks, created_by)
    select ${org.id}, g, src, case when src = 'other' then null else uuid_generate_v7() end, s.id,
      'Fit a guard ' || g, (array['elimination','substitution','engineering','administrative','ppe'])[1 + g % 5], p.id,
      current_date + (g % 400) - 300, st, case when st in ('completed', 'closed') then now() end,
      case when st = 'closed' then now() end, case when st in ('completed', 'closed') then 'Done ' || g end, p.id
    from (select g, (array['observation','observation','observation','incident','audit','safety_interaction','other'])[1 + g % 7] as src,
            (array['open','in_progress','overdue','completed','closed','closed','closed','closed'])[1 + g % 8] as st
          from generate_series(1, ${ACTIONS}::int) g) x
    ${spread}`);
  await owner.execute(sql`insert into action_serials (organization_id, last_serial) values (${org.id}, ${ACTIONS})`);
}

afterAll(async () => {
  await pool?.end();
  await t?.close();
});

type Statement = { text: string; params: unknown[] };

/** The statements `fn` issues as the app runs it, each explained inside the tenant transaction. */
async function plans(fn: (tx: Tx) => Promise<unknown>): Promise<Array<{ text: string; scans: string[] }>> {
  const seen: Statement[] = [];
  const db = drizzle(pool, { schema, logger: { logQuery: (text, params) => seen.push({ text, params: [...params] }) } });
  await inTenant(db, org.id, fn);
  const statements = seen.filter((s) => !/^\s*(begin|commit|rollback)\b/i.test(s.text) && !/set_config\('app\./.test(s.text));
  const out: Array<{ text: string; scans: string[] }> = [];
  const client = await pool.connect();
  try {
    for (const s of statements) {
      await client.query('begin');
      await client.query(`select set_config('app.organization_id', $1, true)`, [org.id]);
      const res = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`explain (format json) ${s.text}`, s.params);
      await client.query('rollback');
      const scans: string[] = [];
      const walk = (n: PlanNode) => {
        if (n['Relation Name']) scans.push(`${n['Node Type']} ${n['Relation Name']}`);
        for (const c of n.Plans ?? []) walk(c);
      };
      walk(res.rows[0]!['QUERY PLAN'][0]!.Plan);
      out.push({ text: s.text, scans });
    }
  } finally {
    client.release();
  }
  return out;
}
type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

const seqScans = (ps: Array<{ scans: string[] }>) =>
  ps.flatMap((p) => p.scans).filter((s) => /^Seq Scan (actions|safety_interactions)$/.test(s));

const ACTION_VARIANTS: Array<[ActionListKind, string]> = [
  ['all', ''],
  ['all', 'status=open'],
  ['all', 'status=overdue'],
  ['all', 'status=closed&page=20'],
  ['all', 'site_id=SITE'],
  ['all', 'site_id=SITE&status=completed'],
  ['all', 'responsible_id=ME'],
  ['all', 'responsible_id=ME&status=open'],
  ['all', 'control_type=ppe&status=closed'],
  ['all', 'source_type=other'],
  ['all', 'due_from=2026-01-01&due_to=2026-02-28'],
  ['all', 'search=guard 12'],
  ['all', 'search=guard'],
  ['all', 'search=Plant 3&status=open'],
  ['all', 'search=%23120'],
  ['all', 'search=Person 7'],
  ['observation_action_datas', ''],
  ['observation_action_datas', 'status=in_progress&site_id=SITE'],
  ['audit_action_datas', 'status=overdue'],
  ['incident_action_datas', ''],
  ['other_action_datas', 'status=open'],
  ['si_observation_action_datas', ''],
  ['si_observation_action_datas', 'responsible_id=ME'],
];

const query = (q: string) => Object.fromEntries(new URLSearchParams(q.replace('SITE', site).replace('ME', org.adminId)));

describe('action and safety interaction list plans', () => {
  it('read no organisation\'s actions sequentially, for every list, tab, filter and "my actions"', async () => {
    for (const [kind, q] of ACTION_VARIANTS) {
      const ps = await plans((tx) => listActions(tx, kind, actionListQuerySchema.parse(query(q))));
      expect(seqScans(ps), `${kind}?${q}\n${ps.map((p) => `${p.scans.join(', ')}\n  ${p.text}`).join('\n')}`).toEqual([]);
    }
    expect(seqScans(await plans((tx) => myActionCounts(tx, org.adminId)))).toEqual([]);
  });

  it("read no organisation's safety interactions sequentially, for every filter and a later page", async () => {
    for (const q of [
      '',
      'status=draft',
      'site_id=SITE',
      'observer_id=ME',
      'topic=ppe',
      'from=2026-01-01&to=2026-03-31',
      'page=30',
      'search=Crew 4',
      'search=Worker 77',
      'search=Wore gloves',
      'search=Crew 4&status=draft&page=3',
    ]) {
      const ps = await plans((tx) => listInteractions(tx, siListQuerySchema.parse(query(q))));
      expect(seqScans(ps), `?${q}\n${ps.map((p) => `${p.scans.join(', ')}\n  ${p.text}`).join('\n')}`).toEqual([]);
    }
  });

  it('totals and tab counts equal the rows counted, and the kept counts follow every change', async () => {
    const owner = t.deps.db.owner;
    const truth = async (where: ReturnType<typeof sql>) =>
      (
        (await owner.execute(sql`select count(*)::int as n from actions where organization_id = ${org.id} and ${where}`)).rows[0] as {
          n: number;
        }
      ).n;
    const page = (kind: ActionListKind, q: string) =>
      inTenant(t.deps.db.app, org.id, (tx) => listActions(tx, kind, actionListQuerySchema.parse(query(q))));
    const all = await page('all', '');
    expect(all.total).toBe(ACTIONS);
    expect(all.counts.overdue).toBe(await truth(sql`status = 'overdue'`));
    expect(all.actions.map((a) => a.serial)).toEqual(Array.from({ length: 50 }, (_, i) => ACTIONS - i));
    expect((await page('incident_action_datas', 'status=open&control_type=ppe')).total).toBe(
      await truth(sql`source_type = 'incident' and status = 'open' and control_type = 'ppe'`),
    );
    expect((await page('all', `site_id=${site}&status=closed`)).total).toBe(await truth(sql`site_id = ${site} and status = 'closed'`));
    expect((await page('all', 'search=guard 12&status=open')).total).toBe(
      await truth(sql`description ilike '%guard 12%' and status = 'open'`),
    );
    // A common word counts SEARCH_COUNT_CAP matches and says so; the tabs count the first of them.
    const common = await page('all', 'search=guard&status=open');
    expect([common.total, common.totalCapped, common.countsCapped]).toEqual([SEARCH_COUNT_CAP, true, true]);
    expect(common.counts.all).toBe(SEARCH_COUNT_CAP);
    expect(common.actions.map((a) => a.serial)).toEqual(
      (
        await owner.execute(sql`select serial from actions where organization_id = ${org.id} and status = 'open'
          and description ilike '%guard%' order by serial desc limit 50`)
      ).rows.map((r) => (r as { serial: number }).serial),
    );

    // A common keyword's page is read in index order, a rare one's through the trigram index: the same rows.
    const serials = async (where: ReturnType<typeof sql>) =>
      (
        await owner.execute(sql`select serial from actions where organization_id = ${org.id} and ${where} order by serial desc limit 50`)
      ).rows.map((r) => (r as { serial: number }).serial);
    expect((await page('all', 'search=guard')).actions.map((a) => a.serial)).toEqual(await serials(sql`description ilike '%guard%'`));
    expect((await page('all', 'search=guard 4999')).actions.map((a) => a.serial)).toEqual(
      await serials(sql`description ilike '%guard 4999%'`),
    );

    await owner.execute(sql`
      insert into actions (organization_id, serial, source_type, site_id, description, control_type, due_date, status)
      select ${org.id}, ${ACTIONS} + g, 'other', ${site}, 'More ' || g, 'ppe', current_date, 'open' from generate_series(1, 30) g`);
    await owner.execute(
      sql`update actions set status = 'overdue' where organization_id = ${org.id} and status = 'open' and serial % 3 = 0`,
    );
    await owner.execute(
      sql`update actions set site_id = ${site}, control_type = 'ppe' where organization_id = ${org.id} and serial % 11 = 0`,
    );
    await owner.execute(sql`delete from actions where organization_id = ${org.id} and serial % 13 = 0`);
    const drift = await owner.execute(sql`
      with truth as (select organization_id, source_type, site_id, control_type, status, count(*)::int as n from actions group by 1, 2, 3, 4, 5)
      select * from truth t full join (select * from action_counts where n <> 0) c using (organization_id, source_type, site_id, control_type, status)
      where t.n is distinct from c.n`);
    expect(drift.rows).toEqual([]);

    const si = (q: string) => inTenant(t.deps.db.app, org.id, (tx) => listInteractions(tx, siListQuerySchema.parse(query(q))));
    expect((await si('')).total).toBe(INTERACTIONS);
    expect((await si('topic=line_of_fire')).total).toBe(INTERACTIONS / 5);
    await owner.execute(sql`
      insert into safety_interactions (organization_id, serial, status, site_id, held_at, held_on, duration_minutes, topics, recognition_given)
      select ${org.id}, ${INTERACTIONS} + g, 'draft', ${site}, now(), current_date, 10, '{ppe,ppe,housekeeping}', false from generate_series(1, 30) g`);
    await owner.execute(
      sql`update safety_interactions set topics = '{ppe,other}', status = 'draft' where organization_id = ${org.id} and serial % 7 = 0`,
    );
    await owner.execute(sql`delete from safety_interactions where organization_id = ${org.id} and serial % 17 = 0`);
    const siDrift = await owner.execute(sql`
      with truth as (
        select organization_id, site_id, status, topic, count(*)::int as n from (
          select organization_id, site_id, status, '' as topic from safety_interactions
          union all
          select i.organization_id, i.site_id, i.status, x.topic from safety_interactions i cross join lateral (select distinct unnest(i.topics)) x(topic)
        ) c group by 1, 2, 3, 4)
      select * from truth t full join (select * from safety_interaction_counts where n <> 0) c using (organization_id, site_id, status, topic)
      where t.n is distinct from c.n`);
    expect(siDrift.rows).toEqual([]);
    const siTruth = async (where: ReturnType<typeof sql>) =>
      (
        (await owner.execute(sql`select count(*)::int as n from safety_interactions where organization_id = ${org.id} and ${where}`))
          .rows[0] as {
          n: number;
        }
      ).n;
    expect((await si('topic=ppe&status=draft')).total).toBe(await siTruth(sql`'ppe' = any(topics) and status = 'draft'`));
    expect((await si(`site_id=${site}&status=draft`)).total).toBe(await siTruth(sql`site_id = ${site} and status = 'draft'`));
    expect((await si('from=2026-01-01&to=2026-03-31')).total).toBe(await siTruth(sql`held_on between '2026-01-01' and '2026-03-31'`));
    expect((await si('search=Worker 77')).total).toBe(
      await siTruth(sql`id in (select interaction_id from si_participants where name ilike '%Worker 77%')`),
    );
  });

  it("a search's capped function (migration 0220) answers exactly the rows of 0211's and 0212's, each once", async () => {
    const owner = t.deps.db.owner;
    const keys = async (q: ReturnType<typeof sql>) => (await owner.execute(q)).rows.map((r) => String((r as { k: unknown }).k)).sort();
    for (const word of ['guard 12', 'Person 7', 'Plant 3', 'Done 4', '120', 'nothing-like-this']) {
      const p = `%${word}%`;
      const serial = /^\d+$/.test(word) ? Number(word) : null;
      const found = await keys(
        sql`select m.serial as k from app_action_search(${org.id}, ${p}, ${serial}::integer, null, null, null, null, null, null, null, 1000000) m`,
      );
      expect(new Set(found).size, word).toBe(found.length);
      expect(found, word).toEqual(
        await keys(sql`select serial as k from actions a where organization_id = ${org.id} and (a.serial = ${serial}::integer
          or a.serial in (select app_action_matches(${org.id}, ${p}))
          or a.responsible_id in (select id from users where organization_id = ${org.id} and full_name ilike ${p})
          or a.site_id in (select id from sites where organization_id = ${org.id} and name ilike ${p}))`),
      );
    }
    for (const word of ['Crew 4', 'Worker 77', 'Wore gloves 12', 'Talk 99', 'Bay 3', 'SI-000120', 'Person 12', 'nothing-like-this']) {
      const p = `%${word}%`;
      const found = await keys(sql`select m.id as k from app_si_search(${org.id}, ${p}, null, null, null, null, null, null, 1000000) m`);
      expect(new Set(found).size, word).toBe(found.length);
      expect(found, word).toEqual(await keys(sql`select m as k from app_si_matches(${org.id}, ${p}) m`));
    }
  });

  it("a safety interaction search's page is the newest matches, read in order or through the indexes", async () => {
    const owner = t.deps.db.owner;
    for (const [q, where] of [
      ['search=Crew 4', sql`true`],
      ['search=Wore gloves&page=3', sql`true`],
      ['search=Crew 4&status=draft&page=2', sql`status = 'draft'`],
      ['search=Worker 77', sql`true`],
      [`search=Bay 3&site_id=${site}`, sql`site_id = ${site}`],
    ] as const) {
      const params = new URLSearchParams(q);
      const pageNo = Number(params.get('page') ?? 1);
      const got = await inTenant(t.deps.db.app, org.id, (tx) => listInteractions(tx, siListQuerySchema.parse(query(q))));
      const matched = sql`organization_id = ${org.id} and id in (select app_si_matches(${org.id}, ${`%${params.get('search')}%`})) and ${where}`;
      const n = ((await owner.execute(sql`select count(*)::int as n from safety_interactions where ${matched}`)).rows[0] as { n: number })
        .n;
      const newest = await owner.execute(
        sql`select serial from safety_interactions where ${matched} order by held_at desc, serial desc limit 25 offset ${(pageNo - 1) * 25}`,
      );
      expect(
        got.items.map((i) => i.serial),
        q,
      ).toEqual(newest.rows.map((r) => (r as { serial: number }).serial));
      expect([got.total, got.totalCapped], q).toEqual(n > SEARCH_COUNT_CAP ? [SEARCH_COUNT_CAP, true] : [n, false]);
    }
  });
});
