/**
 * `npx tsx bench/plans.ts [--no-readme]`
 *
 * The plan of each list's main queries on the seeded bench database (seed.ts), for the README (issue 13:
 * "put the plan of each list's main query in bench/README.md"). For the largest organisation, each list's
 * service function (the one its route calls) runs as a request runs it (app role, tenant transaction)
 * and its statements are captured (lib/capture.ts). Each statement that reads observations, actions or
 * safety interactions then runs again on the owner's connection switched to the app role with the tenant
 * set, under auto_explain (ANALYZE, BUFFERS, nested statements): a search's plan inside its SECURITY
 * DEFINER function is shown too, which a plain EXPLAIN hides behind a Function Scan. Without auto_explain
 * (the owner not a superuser) it falls back to EXPLAIN (ANALYZE, BUFFERS) of the statement alone.
 *
 * The plans are printed and written into bench/README.md between `<!-- plans:start -->` and
 * `<!-- plans:end -->` (unless --no-readme). Run it after the final migrations: `npm run bench:seed`
 * first if the database is not seeded, and on a quiet machine, as the times are part of the plans.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { actionListQuerySchema, observationCountsQuery, observationListQuery, siListQuerySchema } from '@bulwark/domain';
import type { Tx } from '../packages/server/src/platform/db/db.js';
import { listActions } from '../packages/server/src/modules/actions/queries.js';
import { listObservations, statusCounts } from '../packages/server/src/modules/observations/list.js';
import { listInteractions } from '../packages/server/src/modules/safety-interactions/service.js';
import { captureStatements, type Statement } from './lib/capture.js';
import { openBenchDb, requireSeed, ROOT } from './lib/db.js';

const { values } = parseArgs({ options: { 'no-readme': { type: 'boolean', default: false } } });
/** Statements reading the lists' tables, their counters, or their search functions (migrations 0130, 0210–0212). */
const WATCHED =
  /\b(observations|actions|safety_interactions|observation_day_counts|action_counts|safety_interaction_counts|app_\w+_matches)\b/;
const q = (s: string) => Object.fromEntries(new URLSearchParams(s));
/** The largest organisation's busiest site, known once connected. */
const fixtures = { siteId: '' };

/** Each list's main requests: its default tab, and its keyword search. */
const LISTS: Array<{ title: string; request: string; run: (tx: Tx) => Promise<unknown> }> = [
  {
    title: 'Observation list (all, newest observed first)',
    request: 'GET /api/v2/observations',
    run: (tx) => listObservations(tx, observationListQuery.parse({})),
  },
  {
    title: 'Observation list, open tab at a site',
    request: 'GET /api/v2/observations?status=open&site_id=…',
    run: (tx) => listObservations(tx, observationListQuery.parse({ status: 'open', site_id: fixtures.siteId })),
  },
  {
    title: 'Observation keyword search',
    request: 'GET /api/v2/observations?search=forklift',
    run: (tx) => listObservations(tx, observationListQuery.parse(q('search=forklift'))),
  },
  {
    title: 'Observation period status counts (tab totals)',
    request: 'GET /api/v2/observations/period_status_counts?from=…&to=…',
    run: (tx) => statusCounts(tx, observationCountsQuery.parse({ from: daysAgo(365), to: daysAgo(0) })),
  },
  {
    title: 'Action list (all sources, all tabs) with its tab totals',
    request: 'GET /api/actions/all',
    run: (tx) => listActions(tx, 'all', actionListQuerySchema.parse({})),
  },
  {
    title: 'Action list of one source, overdue tab',
    request: 'GET /api/actions/observation_action_datas?status=overdue',
    run: (tx) => listActions(tx, 'observation_action_datas', actionListQuerySchema.parse({ status: 'overdue' })),
  },
  {
    title: 'Action keyword search',
    request: 'GET /api/actions/all?search=guard',
    run: (tx) => listActions(tx, 'all', actionListQuerySchema.parse(q('search=guard'))),
  },
  {
    title: 'Safety interaction list',
    request: 'GET /api/safety_interactions',
    run: (tx) => listInteractions(tx, siListQuerySchema.parse({})),
  },
  {
    title: 'Safety interaction keyword search',
    request: 'GET /api/safety_interactions?search=forklift',
    run: (tx) => listInteractions(tx, siListQuerySchema.parse(q('search=forklift'))),
  },
];

const db = await openBenchDb();
const seed = await requireSeed(db.ownerUrl);
const org = seed.largest;
const appRole = decodeURIComponent(new URL(db.appUrl).username);
const owner = new pg.Client({ connectionString: db.ownerUrl });
await owner.connect();
const out: string[] = [];
try {
  const site = await owner.query<{ site_id: string }>(
    'select site_id from observations where organization_id = $1 group by site_id order by count(*) desc limit 1',
    [org.id],
  );
  fixtures.siteId = site.rows[0]?.site_id ?? '';
  const autoExplain = await owner.query(`load 'auto_explain'`).then(
    () => true,
    () => false,
  );
  out.push(
    `Plans on the bench database (${seed.orgs.toLocaleString('en')} organisations, ${seed.observations.toLocaleString('en')} observations, ` +
      `${seed.actions.toLocaleString('en')} actions, ${seed.safetyInteractions.toLocaleString('en')} safety interactions), ` +
      `largest organisation (${org.observations.toLocaleString('en')} observations), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
      `from \`npx tsx bench/plans.ts\`${autoExplain ? ' (auto_explain: nested plans of the search functions included)' : ''}.`,
    '',
  );
  for (const list of LISTS) {
    const statements = (await captureStatements(db.appUrl, org.id, list.run)).filter(
      (s) => /^\s*(select|with)\b/i.test(s.text) && WATCHED.test(s.text),
    );
    const planned = [];
    for (const s of statements) {
      const plans = autoExplain ? await loggedPlans(s) : [await explained(s)];
      planned.push({ s, plans, ms: Math.max(0, ...plans.map(duration)) });
    }
    // The main query: the slowest; the others in a line each.
    planned.sort((a, b) => b.ms - a.ms);
    out.push(`### ${list.title}`, '', `\`${list.request}\`: ${statements.length} statement(s) reading the list's tables or counters.`, '');
    const [main, ...rest] = planned;
    if (main) {
      out.push('```', oneLine(main.s.text), '');
      for (const plan of main.plans) out.push(plan.trimEnd(), '');
      out.push('```', '');
    }
    for (const r of rest) out.push(`- ${r.ms.toFixed(1)} ms, ${topNode(r.plans.at(-1) ?? '')}: \`${oneLine(r.s.text).slice(0, 160)}…\``);
    if (rest.length) out.push('');
  }
} finally {
  await owner.end();
  await db.close();
}
const text = out.join('\n');
console.log(text);
if (!values['no-readme']) writeReadme(text);

/** The statement as the request ran it, under auto_explain: its own plan and every nested one, as text. */
async function loggedPlans(s: Statement): Promise<string[]> {
  const plans: string[] = [];
  const onNotice = (m: { message?: string }) => {
    const at = m.message?.indexOf('plan:') ?? -1;
    if (m.message && at >= 0) plans.push(`${m.message.slice(0, at).trim()}\n${m.message.slice(at + 'plan:'.length).replace(/^\n/, '')}`);
  };
  await owner.query('begin');
  try {
    await owner.query(`set local auto_explain.log_min_duration = 0; set local auto_explain.log_analyze = on; set local auto_explain.log_buffers = on;
      set local auto_explain.log_nested_statements = on; set local auto_explain.log_format = 'text'; set local client_min_messages = 'log'`);
    await owner.query(`set local role "${appRole}"`);
    await owner.query(`select set_config('app.organization_id', $1, true)`, [org.id]);
    owner.on('notice', onNotice);
    await owner.query(s.text, s.params);
  } finally {
    // The unnamed portal ends (and auto_explain logs the statement's own plan) at the next statement.
    await owner.query('rollback');
    owner.off('notice', onNotice);
  }
  // Only what reads the lists' tables (not the tenant's set_config).
  // Only plans that read a table (not the tenant's set_config, nor a search function's wall check on pg_class).
  return plans.filter((p) => /Scan(?: using \S+)? on (?!pg_)\w+/.test(p));
}

async function explained(s: Statement): Promise<string> {
  await owner.query('begin');
  try {
    await owner.query(`set local role "${appRole}"`);
    await owner.query(`select set_config('app.organization_id', $1, true)`, [org.id]);
    const res = await owner.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${s.text}`, s.params);
    return res.rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await owner.query('rollback');
  }
}

/** The time a logged plan reports ("duration: 1.234 ms" from auto_explain, "Execution Time: …" from EXPLAIN). */
function duration(plan: string): number {
  const m = /duration: ([\d.]+) ms|Execution Time: ([\d.]+) ms/.exec(plan);
  return Number(m?.[1] ?? m?.[2] ?? 0);
}

/** The first node of a plan's text (its top line with costs), without the costs. */
function topNode(plan: string): string {
  const line = plan.split('\n').find((l) => /\(cost=/.test(l)) ?? '';
  return line.replace(/\s*\(cost=.*$/, '').trim();
}

function daysAgo(n: number): string {
  return new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
}

function oneLine(sql: string): string {
  return sql.replace(/\s+/g, ' ').trim();
}

function writeReadme(text: string) {
  const file = path.join(ROOT, 'bench', 'README.md');
  const readme = readFileSync(file, 'utf8');
  const start = '<!-- plans:start -->';
  const end = '<!-- plans:end -->';
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) {
    console.log('bench/README.md has no plans markers; left alone.');
    return;
  }
  writeFileSync(file, `${readme.slice(0, from + start.length)}\n${text}\n${readme.slice(to)}`);
  console.log('bench/README.md: plans section updated.');
}
