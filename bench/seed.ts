/**
 * `npm run bench:seed -- --orgs 1000 --observations 1000000 [--if-needed] [--fresh]`
 *
 * Fills the bench database (bench/lib/db.ts) with organisations of realistic, skewed sizes: Zipf, so the
 * largest holds about a fifth of all observations (`--top-share`) and a long tail holds a few hundred or
 * fewer. Each organisation gets sites with divisions and departments, users (all signing in with
 * BENCH_PASSWORD), observation and action categories, observations over two years with a realistic mix
 * of types, risks, reporters and statuses, and actions for those that need them, with statuses that agree
 * with their observation's (observationStatusFromActions).
 *
 * How: the first organisation is created by the real service (createOrganizationIn: its Administrator role
 * with every right, its admin and that admin's password hash); every other organisation, role, user and
 * record is written by a few set-based `INSERT … SELECT generate_series(…)` statements on the owner
 * connection. Not COPY: `pg` alone has no COPY FROM STDIN (that is pg-copy-streams, which is not a
 * dependency), and generating the rows inside PostgreSQL is as fast while sending no data over the wire.
 * Foreign-key triggers are skipped (session_replication_role = replica) when the owner may do so: the
 * generator builds every reference from the rows it just wrote.
 *
 * Serials: observation_serials / action_serials hold each organisation's highest serial, as nextSerial()
 * expects, so creating an observation after the seed takes the next number.
 */
import { drizzle } from './lib/drizzle.js';
import pg from 'pg';
import { parseArgs } from 'node:util';
import { ROLE_SUBJECTS } from '@bulwark/domain';
import * as schema from '../packages/server/src/platform/db/schema.js';
import { migrate } from '../packages/server/src/platform/db/migrate.js';
import { createOrganizationService } from '../packages/server/src/modules/organizations/service.js';
import { BENCH_PASSWORD, openBenchDb, readSeed } from './lib/db.js';

const { values } = parseArgs({
  options: {
    orgs: { type: 'string', default: '50' },
    observations: { type: 'string', default: '50000' },
    'top-share': { type: 'string', default: '0.2' },
    'if-needed': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
  },
});
const ORGS = Number(values.orgs);
const OBSERVATIONS = Number(values.observations);
const TOP_SHARE = Number(values['top-share']);
if (!Number.isInteger(ORGS) || ORGS < 1 || !Number.isInteger(OBSERVATIONS) || OBSERVATIONS < 0 || !(TOP_SHARE > 0 && TOP_SHARE < 1)) {
  console.error('Usage: npm run bench:seed -- --orgs N (≥ 1) --observations N (≥ 0) [--top-share 0.2] [--if-needed] [--fresh]');
  process.exit(2);
}

/** Zipf sizes: weight k^-s, with s chosen so the largest gets `top` of the total. */
export function zipfSizes(n: number, total: number, top: number): number[] {
  const share = (s: number) => {
    let sum = 0;
    for (let k = 1; k <= n; k++) sum += k ** -s;
    return 1 / sum;
  };
  let lo = 0;
  let hi = 6;
  // share(s) grows with s; with one organisation it is 1 whatever s is.
  for (let i = 0; i < 60 && n > 1; i++) {
    const mid = (lo + hi) / 2;
    if (share(mid) < top) lo = mid;
    else hi = mid;
  }
  const s = n > 1 ? (lo + hi) / 2 : 0;
  const weights = Array.from({ length: n }, (_, k) => (k + 1) ** -s);
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.floor((total * w) / sum));
  let left = total - sizes.reduce((a, b) => a + b, 0);
  for (let k = 0; left > 0; k = (k + 1) % n, left--) sizes[k]! += 1;
  return sizes;
}

// The migrations' own refills of the lists' counters (0211, 0212): the same rules as their triggers.
const COUNTER_REFILLS = ['app_refill_action_counts', 'app_refill_safety_interaction_counts'];

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
const pad = (n: number) => String(n).padStart(5, '0');

const started = Date.now();
const log = (m: string) => console.log(`  ${m}`);
const db = await openBenchDb(log, { fresh: values.fresh }).catch((err: unknown) => {
  // `npm run bench` seeds with --if-needed: a migration edited since this database took it (the data is
  // generated) means seeding again from scratch, not stopping there.
  if (!values['if-needed'] || !(err instanceof Error && /changed after it was applied/.test(err.message))) throw err;
  log('a migration changed since this database was seeded: seeding again from scratch');
  return openBenchDb(log, { fresh: true });
});
console.log(`Bench database: ${db.where}`);
try {
  const existing = await readSeed(db.ownerUrl);
  if (
    values['if-needed'] &&
    !values.fresh &&
    existing &&
    existing.orgs === ORGS &&
    existing.observations === OBSERVATIONS &&
    existing.safetyInteractions > 0
  ) {
    console.log(
      `Already seeded with ${ORGS} organisations and ${OBSERVATIONS} observations (${existing.actions} actions) on ${existing.seededAt.toISOString().slice(0, 16)}: nothing to do.`,
    );
  } else {
    // --fresh emptied it already (openBenchDb).
    await seed(db.ownerUrl, existing !== null);
  }
} finally {
  await db.close();
}

async function seed(ownerUrl: string, wipe: boolean) {
  const c = new pg.Client({ connectionString: ownerUrl });
  await c.connect();
  const pool = new pg.Pool({ connectionString: ownerUrl, max: 2 });
  try {
    const dirty = (await c.query<{ n: string }>('select count(*) as n from organizations where not is_platform')).rows[0]?.n !== '0';
    if (wipe || dirty) {
      const t = Date.now();
      // The whole schema goes: a million rows leave faster this way than by cascading deletes.
      await c.query('drop schema public cascade; create schema public');
      await migrate(ownerUrl);
      console.log(`  emptied and migrated again in ${secs(t)}`);
    }
    const replica = await c.query('set session_replication_role = replica').then(
      () => true,
      () => false,
    );
    if (!replica)
      console.log('  note: the owner may not skip foreign-key triggers (not a superuser); seeding checks every reference and is slower.');
    // Generated rows are never read before the end, and a failure re-seeds from scratch.
    await c.query('set synchronous_commit = off');
    // The generator's estimates are poor (generate_series per organisation), and compiling for them costs more than it saves.
    await c.query('set jit = off');

    const sizes = zipfSizes(ORGS, OBSERVATIONS, TOP_SHARE);
    console.log(
      `Seeding ${ORGS} organisations, ${OBSERVATIONS} observations (largest ${sizes[0]}, median ${sizes[Math.floor(ORGS / 2)]}, smallest ${sizes.at(-1)})`,
    );

    // 1. The first organisation through the real service: roles, rights and the admin as the app makes them.
    let t = Date.now();
    const owner = drizzle(pool, { schema });
    const first = await createOrganizationService(owner).createOrganization({
      subDomain: `bench-${pad(1)}`,
      name: 'Bench Organisation 00001',
      admin: { email: `admin@bench-${pad(1)}.example.com`, fullName: 'Ada Adminson', password: BENCH_PASSWORD },
    });
    const template = first.organization.id;
    const hash = (await c.query<{ password_hash: string }>('select password_hash from users where organization_id = $1', [template]))
      .rows[0]!.password_hash;
    await c.query(`select set_config('app.organization_id', $1, false)`, [template]);
    // A second role for everyone but the admin: reports and follows up observations and actions.
    const officer = (
      await c.query<{ id: string }>(`insert into roles (organization_id, name) values ($1, 'Safety officer') returning id`, [template])
    ).rows[0]!.id;
    const officerRights: Record<string, [boolean, boolean, boolean, boolean]> = {
      Observation: [true, true, true, false],
      Action: [true, true, true, false],
      Incident: [true, false, true, false],
      Site: [false, false, true, false],
    };
    await c.query(
      `insert into role_actions (organization_id, role_id, name, r_add, r_edit, r_view, r_destroy)
       select $1, $2, s, coalesce((r ->> 0)::boolean, false), coalesce((r ->> 1)::boolean, false), coalesce((r ->> 2)::boolean, false), coalesce((r ->> 3)::boolean, false)
       from unnest($3::text[]) s left join lateral (select $4::jsonb -> s as r) x on true`,
      [template, officer, ROLE_SUBJECTS, JSON.stringify(officerRights)],
    );
    await c.query(`select set_config('app.organization_id', '', false)`);
    console.log(`  organisation 1 through the service (roles, admin, password hash) in ${secs(t)}`);

    // 2. The plan: one row per organisation with its sizes.
    t = Date.now();
    const n = sizes.map((_, i) => i + 1);
    await c.query(`create temp table bench_plan (
      n int primary key, org_id uuid not null, sub text not null, name text not null, obs int not null, users int not null, sites int not null)`);
    await c.query(
      `insert into bench_plan select k, case when k = 1 then $5::uuid else uuid_generate_v7() end, 'bench-' || lpad(k::text, 5, '0'),
         'Bench Organisation ' || lpad(k::text, 5, '0'), o, u, s
       from unnest($1::int[], $2::int[], $3::int[], $4::int[]) as x(k, o, u, s)`,
      [
        n,
        sizes,
        sizes.map((o) => clamp(Math.round(o / 100), 3, 2000)),
        sizes.map((o) => clamp(Math.ceil(Math.sqrt(o) / 15), 1, 30)),
        template,
      ],
    );
    await c.query(`insert into organizations (id, name, sub_domain_name, organization_status, subscription_type, trial_ends_at, onboarding_completed_at,
        timezone, storage_quota_bytes, user_limit)
      select org_id, name, sub, 'Active', 'active', null, now(), 'UTC', 10737418240, greatest(50, users + 50) from bench_plan where n > 1`);
    // A paying customer: the free trial's end would refuse the bench's writes.
    await c.query(`update organizations o set subscription_type = 'active', trial_ends_at = null, storage_quota_bytes = 10737418240,
        user_limit = greatest(50, p.users + 50) from bench_plan p where p.n = 1 and o.id = p.org_id`);
    await c.query(
      `insert into roles (organization_id, id, name, is_system, is_power_user, grants_admin)
      select p.org_id, uuid_generate_v7(), r.name, r.is_system, r.is_power_user, r.grants_admin
      from bench_plan p cross join roles r where r.organization_id = $1 and p.n > 1`,
      [template],
    );
    await c.query(
      `insert into role_actions (organization_id, role_id, name, r_add, r_edit, r_view, r_destroy, is_revoke, is_extend, is_close, is_reject, is_approve)
      select nr.organization_id, nr.id, ra.name, ra.r_add, ra.r_edit, ra.r_view, ra.r_destroy, ra.is_revoke, ra.is_extend, ra.is_close, ra.is_reject, ra.is_approve
      from roles tr
      join role_actions ra on ra.organization_id = tr.organization_id and ra.role_id = tr.id
      join bench_plan p on p.n > 1
      join roles nr on nr.organization_id = p.org_id and nr.name = tr.name
      where tr.organization_id = $1`,
      [template],
    );
    console.log(`  ${ORGS} organisations with their roles in ${secs(t)}`);

    // 3. Users, sites with their areas, categories.
    t = Date.now();
    const users = await c.query(
      `insert into users (organization_id, id, email, full_name, password_hash, status, is_admin, can_issue_permit, role_id, locale,
        employee_id, verified_at, created_at)
      select p.org_id, uuid_generate_v7(),
        case when k = 1 then 'admin@' else 'user' || k || '@' end || p.sub || '.example.com',
        (array['Ana','Mehmet','Wei','Lucía','John','Ayşe','Li','Carlos','Fatma','Emma','Diego','Mei','Omar','Sofía','Tom','Elif'])[1 + k % 16] || ' ' ||
        (array['García','Yılmaz','Zhang','Smith','López','Kaya','Wang','Martínez','Demir','Brown','Chen','Öztürk','Jones','Liu','Pérez'])[1 + (k / 16) % 15] ||
        case when k > 240 then ' ' || k else '' end,
        $1, 'Active', k = 1, k = 1,
        (select r.id from roles r where r.organization_id = p.org_id and r.name = case when k = 1 then 'Administrator' else 'Safety officer' end),
        (array['en','en','en','es','tr','zh'])[1 + k % 6], 'E' || lpad(k::text, 6, '0'), now(), now() - interval '2 years'
      from bench_plan p cross join lateral generate_series(case when p.n = 1 then 2 else 1 end, p.users) k`,
      [hash],
    );
    await c.query(
      `update users u set employee_id = 'E000001', created_at = now() - interval '2 years' from bench_plan p where p.n = 1 and u.organization_id = p.org_id and u.is_admin`,
    );
    const sites =
      await c.query(`insert into sites (organization_id, id, name, short_name, site_code, time_zone, head_of_safety_id, emergency_phone, emergency_email,
        address, city, state, country, zip, created_at)
      select p.org_id, uuid_generate_v7(),
        (array['Riverside','Hillcrest','Harbour','Northgate','Lakeside','Eastfield','Westbrook','Southpoint'])[1 + k % 8] || ' ' ||
        (array['Plant','Warehouse','Yard','Depot','Mill'])[1 + k % 5] || ' ' || k,
        'S' || k, 'SITE-' || lpad(k::text, 3, '0'),
        (array['Europe/Istanbul','Europe/Madrid','America/Mexico_City','Asia/Shanghai','Europe/London','UTC'])[1 + (p.n + k) % 6],
        (select u.id from users u where u.organization_id = p.org_id and u.email = 'user2@' || p.sub || '.example.com'),
        '+1 555 0100', 'safety@' || p.sub || '.example.com', k || ' Industrial Way', 'Springfield', 'State', 'US', '10001', now() - interval '2 years'
      from bench_plan p cross join lateral generate_series(1, p.sites) k`);
    await c.query(`insert into site_nodes (organization_id, id, site_id, parent_id, level, name)
      select s.organization_id, uuid_generate_v7(), s.id, null, 'division', d
      from sites s join bench_plan p on p.org_id = s.organization_id cross join unnest(array['Production','Maintenance']) d`);
    await c.query(`insert into site_nodes (organization_id, id, site_id, parent_id, level, name)
      select d.organization_id, uuid_generate_v7(), d.site_id, d.id, 'department', d.name || ' ' || x
      from site_nodes d join bench_plan p on p.org_id = d.organization_id cross join unnest(array['A','B']) x where d.level = 'division'`);
    await c.query(`insert into user_sites (organization_id, user_id, site_id)
      select u.organization_id, u.id, s.id from (
        select organization_id, id, row_number() over (partition by organization_id order by id) as k from users
        where organization_id in (select org_id from bench_plan)) u
      join bench_plan p on p.org_id = u.organization_id
      join (select organization_id, id, row_number() over (partition by organization_id order by id) as k from sites) s
        on s.organization_id = u.organization_id and s.k = 1 + u.k % p.sites`);
    await c.query(`insert into categories (organization_id, id, module, type, name, description)
      select p.org_id, uuid_generate_v7(), x.module, x.type, x.name, ''
      from bench_plan p cross join (values
        ('observations','unsafe_act','PPE not used'), ('observations','unsafe_act','Unsafe lifting'),
        ('observations','unsafe_condition','Housekeeping'), ('observations','unsafe_condition','Fire safety'),
        ('observations','near_miss','Falling objects'), ('observations','near_miss','Vehicles and traffic'),
        ('observations','good_practice','Safety initiative'), ('observations','good_practice','Good housekeeping'),
        ('actions','corrective','Repair'), ('actions','preventive','Training'), ('actions','improvement','Procedure')) x(module, type, name)`);
    await c.query(`insert into sub_categories (organization_id, id, category_id, name)
      select c.organization_id, uuid_generate_v7(), c.id, c.name || ' — ' || x
      from categories c join bench_plan p on p.org_id = c.organization_id cross join unnest(array['minor','major']) x where c.module = 'observations'`);
    await c.query(`insert into notifications (organization_id, user_id, title, body, is_read, created_at)
      select u.organization_id, u.id, 'Observation reported', 'A new observation was reported at your site.', k % 3 <> 0, now() - k * interval '1 day'
      from users u join bench_plan p on p.org_id = u.organization_id and u.is_admin cross join generate_series(1, 30) k`);
    console.log(`  ${users.rowCount} users, ${sites.rowCount} sites with 6 areas each, categories in ${secs(t)}`);

    // 4. Lookup tables for the generator: the k-th site (with its areas), user and category of each organisation.
    await c.query(`create temp table bench_site_pick as
      select s.organization_id, (row_number() over (partition by s.organization_id order by s.id) - 1)::int as idx, s.id, s.time_zone,
        (select array_agg(n.id order by n.id) from site_nodes n where n.organization_id = s.organization_id and n.site_id = s.id) as nodes
      from sites s join bench_plan p on p.org_id = s.organization_id;
      create index on bench_site_pick (organization_id, idx);
      create temp table bench_user_pick as
      select u.organization_id, (row_number() over (partition by u.organization_id order by u.id) - 1)::int as idx, u.id, u.full_name
      from users u join bench_plan p on p.org_id = u.organization_id;
      create index on bench_user_pick (organization_id, idx);
      create temp table bench_cat_pick as
      select c.organization_id, c.module, c.type, (row_number() over (partition by c.organization_id, c.module, c.type order by c.name) - 1)::int as idx, c.id,
        (select array_agg(s.id order by s.name) from sub_categories s where s.organization_id = c.organization_id and s.category_id = c.id) as subs
      from categories c join bench_plan p on p.org_id = c.organization_id;
      create index on bench_cat_pick (organization_id, module, type, idx);
      create temp table bench_acat_pick as
      select c.organization_id, (row_number() over (partition by c.organization_id order by c.type, c.name) - 1)::int as idx, c.id
      from categories c join bench_plan p on p.org_id = c.organization_id where c.module = 'actions';
      create index on bench_acat_pick (organization_id, idx);
      create function pg_temp.uuid_at(t timestamptz) returns uuid language sql volatile as $$
        -- A version-7-style id whose time is the record's own creation time, as if written then.
        select encode(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from t) * 1000)::bigint) from 3) from 1 for 6), 'hex')::uuid
      $$;
      analyze bench_plan; analyze bench_site_pick; analyze bench_user_pick; analyze bench_cat_pick; analyze bench_acat_pick`);

    // 5. Observations: one stage row each with its random draws (kept, so every use of a draw agrees),
    //    then the final rows.
    t = Date.now();
    await c.query(`create temp table bench_obs as
      select x.*,
        (array['unsafe_act','unsafe_condition','near_miss','good_practice'])[case when r_type < .30 then 1 when r_type < .70 then 2 when r_type < .85 then 3 else 4 end] as type,
        (array['low','medium','high','critical'])[case when r_risk < .45 then 1 when r_risk < .80 then 2 when r_risk < .95 then 3 else 4 end] as risk_level,
        r_act < .4 as action_required,
        case when r_act < .4 then 1 + (r_nact < .3)::int else 0 end as n_actions,
        case when r_act < .4 then
          case when age > 90 then case when r_stat < .75 then 'closed' when r_stat < .95 then 'completed' when r_stat < .98 then 'in_progress' else 'overdue' end
               when age > 30 then case when r_stat < .40 then 'closed' when r_stat < .70 then 'completed' when r_stat < .85 then 'in_progress' when r_stat < .95 then 'overdue' else 'open' end
               else case when r_stat < .05 then 'closed' when r_stat < .20 then 'completed' when r_stat < .50 then 'in_progress' when r_stat < .60 then 'overdue' else 'open' end end
        else
          case when age > 30 then case when r_stat < .90 then 'closed' else 'open' end else case when r_stat < .30 then 'closed' else 'open' end end
        end as status,
        case when r_src < .05 then 'anonymous' when r_src < .13 then 'guest' when r_src < .17 then 'import' else 'staff' end as reporter_kind
      from (
        select p.org_id, p.n, p.sites, p.users, g.serial, created_at, extract(epoch from now() - created_at) / 86400 as age,
          random() as r_type, random() as r_risk, random() as r_act, random() as r_nact, random() as r_stat, random() as r_src,
          random() as r_site, random() as r_node, random() as r_user, random() as r_cat, random() as r_sub, random() as r_lag, random() as r_text
        from bench_plan p cross join lateral generate_series(1, p.obs) g(serial)
        -- Two years back, denser lately (more people report as the tool spreads); serials follow time.
        cross join lateral (select now() - (730 * power(1 - g.serial::float8 / p.obs, 1.5) + 0.01) * interval '1 day' as created_at) ct
        offset 0) x`);
    await c.query(`create temp table bench_obs_rows as
      select o.*, pg_temp.uuid_at(o.created_at) as id, sp.id as site_id, sp.time_zone,
        case when o.r_node < .7 then sp.nodes[1 + floor(o.r_node / .7 * cardinality(sp.nodes))::int] end as site_node_id,
        u.id as user_id, cp.id as category_id,
        case when cp.id is not null and o.r_sub < .6 then cp.subs[1 + floor(o.r_sub / .6 * cardinality(cp.subs))::int] end as sub_category_id
      from bench_obs o
      join bench_site_pick sp on sp.organization_id = o.org_id and sp.idx = floor(power(o.r_site, 1.6) * o.sites)::int
      join bench_user_pick u on u.organization_id = o.org_id and u.idx = floor(o.r_user * o.users)::int
      left join bench_cat_pick cp on o.r_cat < .9 and cp.organization_id = o.org_id and cp.module = 'observations' and cp.type = o.type
        and cp.idx = floor(o.r_cat / .9 * 2)::int;
      drop table bench_obs`);
    console.log(`    random draws and references staged in ${secs(t)}`);
    const obs = await withoutIndexes(c, 'observations', () =>
      c.query(`insert into observations (organization_id, id, serial, type, category_id, sub_category_id, description, site_id, site_node_id,
        observed_at, observed_local, risk_level, action_required, comment, anonymous, reporter_id, reporter_name, reporter_email, source, status,
        closing_remarks, closed_at, closed_by, created_by, created_at, updated_at)
      select org_id, id, serial, type, category_id, sub_category_id,
        (array[
          'Operator grinding without eye protection at the fabrication bench.', 'Worker lifting a heavy drum alone without a trolley.',
          'Contractor walked under a suspended load during the crane lift.', 'Forklift driver using a phone while reversing.',
          'Hydraulic oil leaking onto the walkway next to line 4.', 'Fire exit at the paint shop blocked by empty drums.',
          'Cable across the corridor at head height near the store.', 'Guard missing on the conveyor drive at the packing area.',
          'A pallet fell from the second rack level; nobody was below.', 'Van reversed without a banksman and nearly hit a pedestrian.',
          'Spanner dropped from the mezzanine onto the walkway.', 'Slipped on spilled coolant near the lathe, no injury.',
          'Crew set up an exclusion zone with barriers before the lift.', 'Team cleaned and labelled every chemical cabinet.',
          'Supervisor stopped work to fix a damaged ladder first.', 'New walkway markings keep people away from forklifts.'
        ])[1 + (array_position(array['unsafe_act','unsafe_condition','near_miss','good_practice'], type) - 1) * 4 + floor(r_text * 4)::int],
        site_id, site_node_id,
        date_trunc('minute', created_at - r_lag * interval '48 hours'),
        date_trunc('minute', (created_at - r_lag * interval '48 hours') at time zone time_zone),
        risk_level, action_required,
        (array['Area made safe on the spot.', 'Supervisor informed.', 'Discussed at the toolbox talk.', 'Photos taken; maintenance called.'])[1 + floor(r_lag * 4)::int],
        reporter_kind = 'anonymous',
        case when reporter_kind in ('staff', 'import') then user_id end,
        case when reporter_kind = 'guest' then 'Visitor ' || serial end,
        case when reporter_kind = 'guest' and r_text < .5 then 'visitor' || serial || '@mail.example.com' end,
        case reporter_kind when 'guest' then 'guest' when 'import' then 'import' else 'staff' end,
        status,
        case when status = 'closed' then 'Checked on site; closed.' end,
        case when status = 'closed' then least(now(), created_at + (24 + r_stat * 10) * interval '1 day') end,
        case when status = 'closed' then user_id end,
        case when reporter_kind in ('staff', 'import') then user_id end,
        created_at, created_at
      from bench_obs_rows`),
    );
    if (replica) {
      // Replica mode also silences the trigger that keeps the list's day counts (migration 0130): count them once.
      await c.query(`insert into observation_day_counts (organization_id, day, status, n)
        select organization_id, observed_local::date, status, count(*) from observations group by 1, 2, 3
        on conflict (organization_id, day, status) do update set n = excluded.n`);
    }
    console.log(`  ${obs.rowCount} observations in ${secs(t)} (${rate(obs.rowCount, t)} rows/s)`);

    // 6. Actions of the observations that need them; statuses that give back the observation's own.
    t = Date.now();
    const acts = await withoutIndexes(c, 'actions', () =>
      c.query(`insert into actions (organization_id, id, serial, source_type, source_id, site_id, description, control_type, category_id,
        responsible_id, due_date, status, remarks, completed_at, completed_by, closed_at, closed_by, created_by, created_at, updated_at)
      select a.org_id, pg_temp.uuid_at(a.created_at), row_number() over (partition by a.org_id order by a.serial, a.k)::int, 'observation', a.id, a.site_id,
        (array['Fit a guard and check it weekly.', 'Brief the crew at the next toolbox talk.', 'Move the store away from the exit.',
          'Replace the damaged equipment.', 'Mark the walkway and add a barrier.', 'Review the lifting procedure.'])[1 + floor(a.r2 * 6)::int],
        (array['elimination','substitution','engineering','administrative','ppe'])[1 + floor(a.r3 * 5)::int],
        ac.id,
        u.id,
        case when a.astatus in ('open', 'in_progress') then current_date + 1 + floor(a.r2 * 30)::int
             when a.astatus = 'overdue' then current_date - 1 - floor(a.r2 * 20)::int
             else (a.created_at + (7 + a.r2 * 23) * interval '1 day')::date end,
        a.astatus,
        case when a.astatus in ('completed', 'closed') then 'Done as agreed; checked by the supervisor.' end,
        case when a.astatus in ('completed', 'closed') then least(now(), a.created_at + (2 + a.r2 * 20) * interval '1 day') end,
        case when a.astatus in ('completed', 'closed') then u.id end,
        case when a.astatus = 'closed' then least(now(), a.created_at + (3 + a.r2 * 20) * interval '1 day') end,
        case when a.astatus = 'closed' then a.user_id end,
        a.created_by, a.created_at, a.created_at
      from (
        select b.*,
          case b.status
            when 'open' then 'open'
            when 'overdue' then case when k = 1 then 'overdue' when r2 < .5 then 'open' else 'in_progress' end
            when 'in_progress' then case when k = 1 then 'in_progress' when r2 < .5 then 'open' else 'completed' end
            when 'completed' then case when r2 < .5 then 'completed' else 'closed' end
            else case when r2 < .3 then 'completed' else 'closed' end
          end as astatus
        from (
          select o.org_id, o.id, o.serial, o.status, o.site_id, o.users, o.created_at, o.user_id, k,
            case when o.reporter_kind in ('staff', 'import') then o.user_id end as created_by,
            random() as r2, random() as r3, random() as r4
          from bench_obs_rows o cross join lateral generate_series(1, o.n_actions) k
          where o.n_actions > 0
          offset 0) b) a
      join bench_user_pick u on u.organization_id = a.org_id and u.idx = floor(a.r4 * a.users)::int
      left join bench_acat_pick ac on a.r3 < .7 and ac.organization_id = a.org_id and ac.idx = floor(a.r3 / .7 * 3)::int`),
    );
    console.log(`  ${acts.rowCount} actions in ${secs(t)} (${rate(acts.rowCount, t)} rows/s)`);

    // 7. Safety interactions: about one for every two observations of an organisation, over the same two
    //    years, each with the people spoken with and the behaviours seen.
    t = Date.now();
    await c.query(`create temp table bench_si_rows as
      select x.*, pg_temp.uuid_at(x.held_at) as id, sp.id as site_id, sp.time_zone,
        case when x.r_area < .6 then sp.nodes[1 + floor(x.r_area / .6 * cardinality(sp.nodes))::int] end as area_id,
        u.id as observer_id, u.full_name as observer_name,
        (select array_agg(t order by t) from (select distinct (array['ppe','housekeeping','working_at_height','manual_handling','tools_equipment',
          'line_of_fire','procedures','emergency_preparedness','vehicles_traffic','hazardous_substances','other'])[1 + floor(random() * 11)::int] as t
          from generate_series(1, 1 + floor(x.r_topics * 3)::int) g where x.serial > 0) ts) as topics
      from (
        select p.org_id, p.sites, p.users, g.serial,
          date_trunc('minute', now() - (730 * power(1 - g.serial::float8 / greatest(1, p.obs / 2), 1.5) + 0.05) * interval '1 day') as held_at,
          random() as r_site, random() as r_area, random() as r_user, random() as r_topics, random() as r_stat, random() as r_beh, random() as r_act
        from bench_plan p cross join lateral generate_series(1, p.obs / 2) g(serial)
        offset 0) x
      join bench_site_pick sp on sp.organization_id = x.org_id and sp.idx = floor(power(x.r_site, 1.6) * x.sites)::int
      join bench_user_pick u on u.organization_id = x.org_id and u.idx = floor(x.r_user * x.users)::int`);
    const sis = await withoutIndexes(c, 'safety_interactions', () =>
      c.query(`insert into safety_interactions (organization_id, id, serial, status, observer_id, site_id, area_id, location, held_at, held_on,
        duration_minutes, crew, topics, recognition_given, comment, created_by, created_at, updated_at, completed_at)
      select org_id, id, serial, case when r_stat < .05 then 'draft' else 'completed' end, observer_id, site_id, area_id,
        case when r_area >= .6 then (array['Loading bay','Workshop','Store','Canteen','Gate 2'])[1 + floor(r_beh * 5)::int] end,
        held_at, (held_at at time zone time_zone)::date, 5 + floor(r_topics * 55)::int,
        case when r_user < .5 then (array['Night shift','Maintenance crew','Contractors','Line 4 team'])[1 + floor(r_user * 8)::int] end,
        topics, r_beh < .35,
        case when r_act < .5 then (array['Good conversation; the crew agreed to keep the walkway clear.', 'Gloves were worn but not the right type.',
          'Forklift route discussed with the drivers.', 'Ladder inspection tags checked together.'])[1 + floor(r_act * 8)::int] end,
        observer_id, held_at, held_at, case when r_stat >= .05 then held_at + interval '30 minutes' end
      from bench_si_rows`),
    );
    // Their trigram indexes (migration 0212) are built once afterwards, as for the records themselves.
    const people = await withoutIndexes(c, 'si_participants', () =>
      c.query(`insert into si_participants (organization_id, interaction_id, position, user_id, name)
      select s.org_id, s.id, k - 1, case when k = 1 then u.id end, case when k = 1 then u.full_name else 'Crew member ' || k end
      from bench_si_rows s cross join lateral generate_series(1, 1 + floor(s.r_beh * 3)::int) k
      join bench_user_pick u on u.organization_id = s.org_id and u.idx = floor(s.r_topics * s.users)::int`),
    );
    const behaviours = await withoutIndexes(c, 'si_behaviours', () =>
      c.query(`insert into si_behaviours (organization_id, interaction_id, kind, position, topic, note)
      select s.org_id, s.id, b.kind, b.pos, s.topics[1 + b.pos % cardinality(s.topics)],
        case b.kind when 'safe' then 'Kept the exclusion zone and wore the right gloves.' else 'Stood in the line of fire while the load was moved.' end
      from bench_si_rows s cross join lateral (
        select 'safe' as kind, k - 1 as pos from generate_series(1, 1 + floor(s.r_beh * 2)::int) k
        union all select 'at_risk', k - 1 from generate_series(1, floor(s.r_act * 3)::int) k) b
      where s.r_stat >= .05`),
    );
    await c.query(`insert into si_counters (organization_id, last_serial) select org_id, obs / 2 from bench_plan
      on conflict (organization_id) do update set last_serial = excluded.last_serial`);
    console.log(
      `  ${sis.rowCount} safety interactions, ${people.rowCount} people, ${behaviours.rowCount} behaviours in ${secs(t)} (${rate(sis.rowCount, t)} interactions/s)`,
    );

    // 8. Actions of the other sources the lists show: safety interactions with at-risk behaviour, stand-alone
    //    actions ('other', one per twenty observations), and audit and incident findings (one per forty each;
    //    their source records are not seeded: the lists show them without a serial, as for a deleted source).
    t = Date.now();
    await c.query(`create temp table bench_act_rows as
      select s.org_id, 'safety_interaction' as source_type, s.id as source_id, s.site_id, s.held_at as created_at, s.observer_id as user_id, s.users
        from bench_si_rows s where s.r_stat >= .05 and s.r_act >= .34 and s.r_act < .75
      union all
      select p.org_id, x.source_type, case when x.source_type <> 'other' then gen_random_uuid() end, sp.id,
        now() - (730 * power(random(), 1.5) + 0.05) * interval '1 day', u.id, p.users
      from bench_plan p
      cross join lateral (select 'other' as source_type, generate_series(1, p.obs / 20) as k union all
        select 'audit', generate_series(1, p.obs / 40) union all select 'incident', generate_series(1, p.obs / 40)) x
      -- Referring to x draws again for every row (an uncorrelated subquery would be drawn once).
      cross join lateral (select random() as r_site, random() as r_user where x.k > 0 offset 0) r
      join bench_site_pick sp on sp.organization_id = p.org_id and sp.idx = floor(power(r.r_site, 1.6) * p.sites)::int
      join bench_user_pick u on u.organization_id = p.org_id and u.idx = floor(r.r_user * p.users)::int;
      drop table bench_si_rows`);
    const moreActs = await withoutIndexes(c, 'actions', () =>
      c.query(`insert into actions (organization_id, id, serial, source_type, source_id, site_id, description, control_type, category_id,
        responsible_id, due_date, status, remarks, completed_at, completed_by, closed_at, closed_by, created_by, created_at, updated_at)
      select a.org_id, pg_temp.uuid_at(a.created_at), coalesce(m.last, 0) + row_number() over (partition by a.org_id order by a.created_at)::int,
        a.source_type, a.source_id, a.site_id,
        (array['Fit a guard and check it weekly.', 'Brief the crew at the next toolbox talk.', 'Move the store away from the exit.',
          'Replace the damaged equipment.', 'Mark the walkway and add a barrier.', 'Review the lifting procedure.'])[1 + floor(a.r2 * 6)::int],
        (array['elimination','substitution','engineering','administrative','ppe'])[1 + floor(a.r3 * 5)::int],
        ac.id, u.id,
        case when a.astatus in ('open', 'in_progress') then current_date + 1 + floor(a.r2 * 30)::int
             when a.astatus = 'overdue' then current_date - 1 - floor(a.r2 * 20)::int
             else (a.created_at + (7 + a.r2 * 23) * interval '1 day')::date end,
        a.astatus,
        case when a.astatus in ('completed', 'closed') then 'Done as agreed; checked by the supervisor.' end,
        case when a.astatus in ('completed', 'closed') then least(now(), a.created_at + (2 + a.r2 * 20) * interval '1 day') end,
        case when a.astatus in ('completed', 'closed') then u.id end,
        case when a.astatus = 'closed' then least(now(), a.created_at + (3 + a.r2 * 20) * interval '1 day') end,
        case when a.astatus = 'closed' then a.user_id end,
        a.user_id, a.created_at, a.created_at
      from (
        select b.*,
          case when age > 60 then case when r_stat < .7 then 'closed' when r_stat < .9 then 'completed' else 'overdue' end
               else case when r_stat < .15 then 'closed' when r_stat < .3 then 'completed' when r_stat < .5 then 'in_progress'
                 when r_stat < .65 then 'overdue' else 'open' end end as astatus
        from (select r.*, extract(epoch from now() - r.created_at) / 86400 as age, random() as r2, random() as r3, random() as r4, random() as r_stat
          from bench_act_rows r offset 0) b) a
      left join (select organization_id, max(serial) as last from actions group by organization_id) m on m.organization_id = a.org_id
      join bench_user_pick u on u.organization_id = a.org_id and u.idx = floor(a.r4 * a.users)::int
      left join bench_acat_pick ac on a.r3 < .7 and ac.organization_id = a.org_id and ac.idx = floor(a.r3 / .7 * 3)::int`),
    );
    await c.query('drop table bench_act_rows');
    console.log(`  ${moreActs.rowCount} actions of safety interactions, audits, incidents and their own in ${secs(t)}`);

    // 9. Attachments: file rows only (no bytes: no list reads them), a quarter of the observations with one or
    //    two photos, a tenth of the actions with one; the organisation's storage figure adds them up.
    t = Date.now();
    await c.query(`create temp table bench_file_rows as
      select organization_id, 'observation' as owner, id as owner_id, created_by as uploaded_by, created_at, k, pg_temp.uuid_at(created_at) as id
        from observations
        cross join lateral generate_series(1, case when serial > 0 and random() < .25 then 1 + (random() < .3)::int else 0 end) k
      union all
      select organization_id, 'action', id, created_by, created_at, 1, pg_temp.uuid_at(created_at) from actions where random() < .1`);
    const fileRows = await withoutIndexes(c, 'files', () =>
      c.query(`insert into files (organization_id, id, purpose, file_name, mime_type, size_bytes, storage_key, uploaded_by, created_at)
      select organization_id, id, 'attachment', 'photo-' || k || '.jpg', 'image/jpeg', 50000 + floor(random() * 400000)::int,
        'bench/' || organization_id || '/' || id, uploaded_by, created_at
      from bench_file_rows`),
    );
    await c.query(`insert into observation_attachments (organization_id, observation_id, file_id, created_at)
      select organization_id, owner_id, id, created_at from bench_file_rows where owner = 'observation'`);
    await c.query(`insert into action_attachments (organization_id, action_id, file_id, created_at)
      select organization_id, owner_id, id, created_at from bench_file_rows where owner = 'action'`);
    await c.query(`update organizations o set storage_used_bytes = f.used, storage_quota_bytes = greatest(o.storage_quota_bytes, 2 * f.used)
      from (select organization_id, sum(size_bytes) as used from files group by organization_id) f where f.organization_id = o.id`);
    await c.query('drop table bench_file_rows');
    console.log(`  ${fileRows.rowCount} attachment files (rows only) in ${secs(t)}`);

    t = Date.now();
    await c.query(`insert into observation_serials (organization_id, last_serial) select org_id, obs from bench_plan where obs > 0
      on conflict (organization_id) do update set last_serial = excluded.last_serial`);
    await c.query(`insert into action_serials (organization_id, last_serial) select organization_id, max(serial) from actions group by organization_id
      on conflict (organization_id) do update set last_serial = excluded.last_serial`);
    await c.query(`drop table bench_obs_rows`);
    // Steady state, as autovacuum would leave it: statistics for the planner, the visibility map for index-only counts.
    await c.query('set session_replication_role = origin').catch(() => {});
    // Replica mode silenced the triggers that keep the lists' counters (as for the day counts above): count
    // them once from the rows, when the migrations have them.
    if (replica) for (const refill of COUNTER_REFILLS) await c.query(`select ${refill}()`);
    await c.query('vacuum (analyze)');
    console.log(`  serial counters, vacuum and analyze in ${secs(t)}`);

    await c.query(`drop table if exists bench_seed; drop table if exists bench_seed_orgs;
      create table bench_seed (orgs int not null, observations int not null, actions int not null, safety_interactions int not null,
        attachments int not null, seeded_at timestamptz not null default now());
      create table bench_seed_orgs (id uuid primary key, sub_domain text not null, observations int not null, emails text[] not null)`);
    await c.query(`insert into bench_seed_orgs select p.org_id, p.sub, p.obs,
        (select (array_agg(u.email order by u.is_admin desc, u.created_at, u.email))[1:200] from users u where u.organization_id = p.org_id)
      from bench_plan p`);
    const allActs = (acts.rowCount ?? 0) + (moreActs.rowCount ?? 0);
    await c.query('insert into bench_seed (orgs, observations, actions, safety_interactions, attachments) values ($1, $2, $3, $4, $5)', [
      ORGS,
      OBSERVATIONS,
      allActs,
      sis.rowCount ?? 0,
      fileRows.rowCount ?? 0,
    ]);
    const rows =
      (obs.rowCount ?? 0) + allActs + (sis.rowCount ?? 0) + (fileRows.rowCount ?? 0) + (users.rowCount ?? 0) + (sites.rowCount ?? 0);
    console.log(
      `Seeded in ${secs(started)}: ${ORGS} organisations, ${users.rowCount} users, ${obs.rowCount} observations, ${allActs} actions, ${sis.rowCount} safety interactions, ${fileRows.rowCount} attachments (${rate(rows, started)} rows/s overall).`,
    );
    console.log(`Sign in to the largest as admin@bench-${pad(1)}.example.com / ${BENCH_PASSWORD} (X-Tenant: bench-${pad(1)}).`);
  } finally {
    await c.end();
    await pool.end();
  }
}

/**
 * Runs a bulk insert into `table` without its plain (non-constraint) indexes, then builds them again from
 * their own definitions: one sort per index instead of a million random inserts. The database was just
 * emptied, and a seed that fails before the end is wiped by the next one, so nothing else sees the gap.
 */
async function withoutIndexes<T>(c: pg.Client, table: string, fn: () => Promise<T>): Promise<T> {
  const defs = (
    await c.query<{ name: string; def: string }>(
      `select i.indexname as name, i.indexdef as def from pg_indexes i
     where i.schemaname = 'public' and i.tablename = $1
       and not exists (select 1 from pg_constraint k where k.conname = i.indexname and k.conrelid = $1::regclass)`,
      [table],
    )
  ).rows;
  for (const d of defs) await c.query(`drop index ${d.name}`);
  let t = Date.now();
  const result = await fn();
  const inserted = secs(t);
  t = Date.now();
  for (const d of defs) await c.query(d.def);
  console.log(`    ${table}: rows written in ${inserted}, ${defs.length} indexes built in ${secs(t)}`);
  return result;
}

function secs(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

function rate(rows: number | null, since: number): string {
  return Math.round((rows ?? 0) / Math.max(0.001, (Date.now() - since) / 1000)).toLocaleString('en');
}
