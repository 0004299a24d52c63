/**
 * `npx tsx bench/export.ts [--rows 100000] [--timeout 120]`
 *
 * The Excel export of issue 13: about `--rows` observations of the largest organisation through the real
 * route (`GET /api/v2/observations?export_to_excel=true&from=…`, the date chosen so the filter holds that
 * many rows), timed from the request to the last byte of the workbook, with the server's resident memory
 * sampled every 50 ms (and its peak, VmHWM, read at the end). Past the inline limit the route answers 202
 * with an export that a pg-boss job writes (JOBS=1 on the bench server): the bench then follows its progress
 * (`GET /api/list_exports/:id`) and downloads it (`/download`), and the wall time covers all of it. Below
 * the limit, or before the job existed, the route answers the workbook itself and that is what is timed.
 *
 * Goals: under 10 s wall time and under 300 MB resident for 100,000 rows.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BENCH_PASSWORD, openBenchDb, requireSeed } from './lib/db.js';
import { recorder } from './lib/report.js';
import { authHeaders, signIn, startBenchServer, type BenchServer, type BenchSession } from './lib/server.js';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '100000' },
    timeout: { type: 'string', default: '120' },
  },
});
const ROWS = Number(values.rows);
const TIMEOUT_MS = Number(values.timeout) * 1000;
const WALL_GOAL_S = 10;
const RSS_GOAL_MB = 300;

/** What the route and the export's own routes answer (only the fields read here). */
type Started = { export: { id: string; status: string; rows_total: number } };
type Progress = { export: { status: string; rows_done: number; rows_total: number; size_bytes: number | null } };

const rec = recorder('export');
const db = await openBenchDb();
const seed = await requireSeed(db.ownerUrl);
const org = seed.largest;
const owner = new pg.Client({ connectionString: db.ownerUrl });
await owner.connect();
// The job runs in the server's own process (JOBS=1), so its memory is the server's.
const server = await startBenchServer(db, { env: { JOBS: '1' } });
try {
  const from = await fromDateFor(ROWS);
  const session = await signIn(server, org.subDomain, org.emails[0]!, BENCH_PASSWORD);
  const path = `/api/v2/observations?export_to_excel=true&from=${from.date}`;
  rec.note(`${from.rows.toLocaleString('en')} observations of ${org.subDomain} observed since ${from.date}; server ${server.pid}.`);
  const idleMb = rssMb(server, 'VmRSS');
  rec.figure('server resident memory before the export', idleMb, 'MB');

  let peakSampled = idleMb;
  const sampler = setInterval(() => (peakSampled = Math.max(peakSampled, rssMb(server, 'VmRSS'))), 50);
  const t0 = performance.now();
  let bytes = 0;
  let how = '';
  try {
    const res = await fetch(`${server.url}${path}`, { headers: authHeaders(session) });
    if (res.status === 202) {
      const started = (await res.json()) as Started;
      const firstAnswer = performance.now() - t0;
      rec.figure('export: first answer (202, export started)', firstAnswer, 'ms');
      const done = await follow(session, started.export.id, t0);
      bytes = await download(`${server.url}/api/list_exports/${started.export.id}/download`, session);
      how = `as a job (202, then ${done.polls} progress checks, then the download); rows_total ${done.rowsTotal.toLocaleString('en')}`;
    } else if (res.ok) {
      bytes = await drain(res);
      how = `in the request (answered ${res.status} with the workbook: no job yet, or under the inline limit)`;
    } else {
      throw new Error(`${path} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    }
  } finally {
    clearInterval(sampler);
  }
  const wall = (performance.now() - t0) / 1000;
  const peak = Math.max(peakSampled, rssMb(server, 'VmHWM'));
  rec.note(`The export ran ${how}.`);
  rec.figure('export: workbook size', bytes / 2 ** 20, 'MB');
  rec.figure('export: peak resident memory sampled every 50 ms', peakSampled, 'MB');
  rec.goal(`Excel export of ${from.rows.toLocaleString('en')} rows: wall time`, wall, WALL_GOAL_S, 's');
  rec.goal(`Excel export of ${from.rows.toLocaleString('en')} rows: server peak resident memory (VmHWM)`, peak, RSS_GOAL_MB, 'MB');
} finally {
  await server.stop();
  await owner.end();
  await db.close();
}
rec.save();

/** The newest day from which the largest organisation holds at least `rows` observations. */
async function fromDateFor(rows: number): Promise<{ date: string; rows: number }> {
  const day = await owner.query<{ day: string }>(
    `select observed_local::date::text as day from observations where organization_id = $1
     order by observed_local desc offset $2 limit 1`,
    [org.id, Math.max(0, rows - 1)],
  );
  const date = day.rows[0]?.day;
  if (!date) throw new Error(`${org.subDomain} holds fewer than ${rows} observations`);
  const n = await owner.query<{ n: number }>(
    'select count(*)::int as n from observations where organization_id = $1 and observed_local >= $2::date',
    [org.id, date],
  );
  return { date, rows: n.rows[0]?.n ?? 0 };
}

/** Follows a started export until it is ready; prints its progress now and then. */
async function follow(session: BenchSession, id: string, t0: number): Promise<{ polls: number; rowsTotal: number }> {
  let polls = 0;
  let lastPrinted = 0;
  for (;;) {
    if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`the export was not ready after ${TIMEOUT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
    polls += 1;
    const res = await fetch(`${server.url}/api/list_exports/${id}`, { headers: authHeaders(session) });
    if (!res.ok) throw new Error(`GET /api/list_exports/${id} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const { export: e } = (await res.json()) as Progress;
    if (performance.now() - lastPrinted > 2000) {
      lastPrinted = performance.now();
      console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s: ${e.status}, ${e.rows_done}/${e.rows_total} rows`);
    }
    if (e.status === 'ready') return { polls, rowsTotal: e.rows_total };
    if (e.status === 'failed' || e.status === 'expired') throw new Error(`the export ended ${e.status}`);
  }
}

async function download(url: string, session: BenchSession): Promise<number> {
  const res = await fetch(url, { headers: authHeaders(session) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return drain(res);
}

/** Reads a body to its end (as a browser saving it would), checking it is a zip (an xlsx); answers its size. */
async function drain(res: Response): Promise<number> {
  let n = 0;
  let head: Uint8Array | null = null;
  for await (const chunk of res.body ?? []) {
    head ??= chunk;
    n += chunk.length;
  }
  if (!head || head[0] !== 0x50 || head[1] !== 0x4b) throw new Error('the answer is not an xlsx workbook');
  return n;
}

/** A line of /proc/<pid>/status in MB: VmRSS (now) or VmHWM (the peak since the process began). */
function rssMb(s: BenchServer, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${s.pid}/status`, 'utf8');
    const kb = Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}
