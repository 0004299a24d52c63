/**
 * Push benchmark (issue 5): thousands of Socket.IO clients of one organisation stay connected while a
 * writer reports observations; each client's receipt of the 'observations' event is timed against the
 * write. Goal: p99 under 200 ms with 2,000 clients on this 2-core machine.
 *
 *   node --import tsx bench/push.ts                     # 2,000 clients, 50 writes
 *   node --import tsx bench/push.ts --clients 500 --writes 20
 *   node --import tsx bench/push.ts --redis             # and again on two app nodes joined by Redis
 *
 * The clients run in forked processes (bench/lib/push-clients.ts), not in the server's event loop; they
 * still share the two cores with the server and PostgreSQL, which the figures include.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { localDateTimeIn } from '@bulwark/domain';
import pg from 'pg';
import { createOrganizationService, createRole } from '../packages/server/src/modules/organizations/service.js';
import { sites } from '../packages/server/src/modules/sites/tables.js';
import { connect, inTenant } from '../packages/server/src/platform/db/db.js';
import { BENCH_PASSWORD, openBenchDb, type BenchDb } from './lib/db.js';
import { authHeaders, signIn, startBenchServer, type BenchServer, type BenchSession } from './lib/server.js';
import type { Command, Reply } from './lib/push-clients.js';
import { recorder, type Recorder } from './lib/report.js';

const { values: args } = parseArgs({
  options: {
    clients: { type: 'string', default: '2000' },
    writes: { type: 'string', default: '50' },
    /** Milliseconds from the start of one write to the start of the next. */
    interval: { type: 'string', default: '500' },
    /** Handshakes in flight at once while connecting: the connection ramp. */
    concurrency: { type: 'string', default: '50' },
    /** Signed-in users whose sessions the clients share: client i uses user i mod users. */
    users: { type: 'string', default: '10' },
    'client-processes': { type: 'string', default: '1' },
    redis: { type: 'boolean', default: false },
    'redis-url': { type: 'string', default: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  },
});
const CLIENTS = Number(args.clients);
const WRITES = Number(args.writes);
const INTERVAL = Number(args.interval);
const CONCURRENCY = Number(args.concurrency);
const USERS = Number(args.users);
const CLIENT_PROCESSES = Math.max(1, Math.min(Number(args['client-processes']), CLIENTS));
const WARM_UP_WRITES = 3;
const DELIVERY_WAIT_MS = 15_000;
const SUB = 'pushbench';
const GOAL_CLIENTS = 2000;
const GOAL_P99_MS = 200;
/** USER_HZ: the unit of /proc/<pid>/stat times; 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/** The clock of bench/lib/push-clients.ts (CLOCK_MONOTONIC, shared by every process of the machine), in ms. */
const now = () => Number(process.hrtime.bigint()) / 1e6;

type Fixture = { siteId: string; adminEmail: string; readerEmails: string[] };
type Write = { id: string; sent: number; answered: number };

/** The organisation the benchmark writes to, made once per database and reused by later runs. */
async function ensureFixture(bench: BenchDb): Promise<Fixture> {
  const db = connect(bench.appUrl, bench.ownerUrl, 2);
  const owner = new pg.Client({ connectionString: bench.ownerUrl });
  await owner.connect();
  const adminEmail = `admin@${SUB}.test`;
  const readerEmails = Array.from({ length: USERS }, (_, i) => `reader${i + 1}@${SUB}.test`);
  try {
    const orgs = createOrganizationService(db.app);
    let orgId = (await owner.query<{ id: string }>('select id from organizations where sub_domain_name = $1', [SUB])).rows[0]?.id;
    if (!orgId) {
      orgId = (
        await orgs.createOrganization({
          subDomain: SUB,
          name: 'Push Bench Ltd',
          admin: { email: adminEmail, fullName: 'Bench Admin', password: BENCH_PASSWORD },
        })
      ).organization.id;
      await inTenant(db.app, orgId, (tx) =>
        createRole(tx, 'Reader', [
          {
            name: 'Observation',
            rAdd: false,
            rEdit: false,
            rView: true,
            rDestroy: false,
            isRevoke: false,
            isExtend: false,
            isClose: false,
            isReject: false,
            isApprove: false,
          },
        ]),
      );
    }
    const existing = new Set(
      (await owner.query<{ email: string }>('select email from users where organization_id = $1', [orgId])).rows.map((r) => r.email),
    );
    for (const email of readerEmails) {
      if (!existing.has(email))
        await orgs.createUser(SUB, { email, fullName: email.split('@')[0]!, password: BENCH_PASSWORD, roleName: 'Reader' });
    }
    // The head of safety is told of every report, as in production: a notification and its push.
    const head = (
      await owner.query<{ id: string }>('select id from users where organization_id = $1 and email = $2', [orgId, readerEmails[0]])
    ).rows[0];
    const siteId = await inTenant(db.app, orgId, async (tx) => {
      const [site] = await tx.select({ id: sites.id }).from(sites).limit(1);
      if (site) return site.id;
      return (
        await tx
          .insert(sites)
          .values({
            name: 'Bench Works',
            timeZone: 'UTC',
            headOfSafetyId: head?.id ?? null,
            emergencyPhone: '020 7946 0958',
            address: '1 Dock Road',
            city: 'Town',
            state: 'State',
            country: 'GB',
            zip: 'E16 2QU',
          })
          .returning({ id: sites.id })
      )[0]!.id;
    });
    return { siteId, adminEmail, readerEmails };
  } finally {
    await owner.end();
    await db.close();
  }
}

/** One session per user, each signing in from its own address (the bench server trusts X-Forwarded-For). */
function signInAll(server: BenchServer, emails: string[]): Promise<BenchSession[]> {
  return Promise.all(emails.map((email, i) => signIn(server, SUB, email, BENCH_PASSWORD, `10.254.${i >> 8}.${(i & 255) + 1}`)));
}

/** A forked client process and a way to ask it something and wait for the answer of a given type. */
function clientProcess() {
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'lib/push-clients.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  function ask<T extends Reply['type']>(command: Command, answer: T, timeoutMs = 120_000): Promise<Extract<Reply, { type: T }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new Error(`client process: no '${answer}' within ${timeoutMs} ms`));
      }, timeoutMs);
      const onMessage = (m: Reply) => {
        if (m.type !== answer) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(m as Extract<Reply, { type: T }>);
      };
      child.on('message', onMessage);
      child.send(command);
    });
  }
  return {
    ask,
    pid: child.pid,
    async close() {
      if (child.connected) await ask({ type: 'close' }, 'closed', 30_000).catch(() => child.kill('SIGKILL'));
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident memory of a process in MiB, from /proc (Linux); null where that cannot be read. */
function rssOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    const kb = Number(/(\d+) kB/.exec(line ?? '')?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time a process has used so far (user + system), in ms, from /proc; NaN where that cannot be read. */
function cpuOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function report(url: string, writer: BenchSession, siteId: string, index: number): Promise<Write> {
  const sent = now();
  const res = await fetch(`${url}/api/observations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...authHeaders(writer) },
    body: JSON.stringify({
      type: 'unsafe_act',
      description: `Push bench write ${index}`,
      site_id: siteId,
      site_node_id: null,
      observed_at: localDateTimeIn('UTC', new Date(Date.now() - 60_000)),
      risk_level: 'low',
      action_required: false,
      comment: 'Written by bench/push.ts',
    }),
  });
  const answered = now();
  if (res.status !== 201) throw new Error(`write ${index} failed: ${res.status} ${await res.text()}`);
  return { id: ((await res.json()) as { id: string }).id, sent, answered };
}

/**
 * When each observation's transaction began (its created_at is now(), the transaction's start), on this
 * process's hrtime clock. The commit comes later, so latencies from here are upper bounds on commit →
 * delivery. PostgreSQL runs on this machine: its wall clock is ours.
 */
async function commitBounds(ownerUrl: string, ids: string[]): Promise<Map<string, number>> {
  const wallMinusHr = performance.timeOrigin + performance.now() - now();
  const owner = new pg.Client({ connectionString: ownerUrl });
  await owner.connect();
  try {
    const { rows } = await owner.query<{ id: string; ms: number }>(
      'select id, extract(epoch from created_at)::float8 * 1000 as ms from observations where id = any($1::uuid[])',
      [ids],
    );
    return new Map(rows.map((r) => [r.id, r.ms - wallMinusHr]));
  } finally {
    await owner.end();
  }
}

/**
 * One scenario: `servers` app nodes (more than one share Redis), CLIENTS clients spread over them,
 * WRITES observations written through the first node.
 */
async function scenario(rec: Recorder, ownerUrl: string, fixture: Fixture, label: string, nodes: BenchServer[]) {
  const suffix = label ? ` (${label})` : '';
  const urls = nodes.map((n) => n.url);
  const sessions = await signInAll(nodes[0]!, [fixture.adminEmail, ...fixture.readerEmails]);
  const writer = sessions[0]!;
  const readers = sessions.slice(1);
  const before = nodes.map((n) => rssOf(n.pid));

  const fleet = Array.from({ length: CLIENT_PROCESSES }, clientProcess);
  const serverCpu = () => nodes.reduce((ms, n) => ms + cpuOf(n.pid), 0);
  const clientCpu = () => fleet.reduce((ms, c) => ms + cpuOf(c.pid), 0);
  try {
    const cpuBeforeConnecting = serverCpu();
    const share = Math.ceil(CLIENTS / CLIENT_PROCESSES);
    const connected = await Promise.all(
      fleet.map((c, k) => {
        const from = k * share;
        const count = Math.max(0, Math.min(share, CLIENTS - from));
        return c.ask(
          {
            type: 'connect',
            from,
            count,
            urls,
            sessions: readers.map(({ token, tenant }) => ({ token, tenant })),
            concurrency: Math.ceil(CONCURRENCY / CLIENT_PROCESSES),
          },
          'connected',
          300_000,
        );
      }),
    );
    const ok = connected.reduce((n, c) => n + c.connected, 0);
    const connectMs = Math.max(...connected.map((c) => c.ms));
    const handshakes = connected.flatMap((c) => c.handshakes).sort((a, b) => a - b);
    rec.figure(`clients connected${suffix}`, ok, 'clients');
    rec.figure(`time to connect them all, ${CONCURRENCY} handshakes in flight${suffix}`, connectMs / 1000, 's');
    rec.figure(`handshake p50${suffix}`, percentile(handshakes, 50), 'ms');
    rec.figure(`handshake p99${suffix}`, percentile(handshakes, 99), 'ms');
    rec.figure(`server CPU per handshake${suffix}`, (serverCpu() - cpuBeforeConnecting) / Math.max(1, ok), 'ms');
    const failures = connected.flatMap((c) => c.errors);
    if (ok < CLIENTS) rec.note(`${CLIENTS - ok} of ${CLIENTS} clients could not connect${suffix}: ${failures.join('; ')}`);

    await sleep(2000);
    nodes.forEach((n, i) => {
      const was = before[i];
      const is = rssOf(n.pid);
      if (was == null || is === null) return;
      const which = nodes.length > 1 ? ` of node ${i + 1}` : '';
      const there = Math.round(ok / nodes.length);
      rec.figure(`server RSS${which} before connecting${suffix}`, was, 'MiB');
      rec.figure(`server RSS${which} with ${there} clients${suffix}`, is, 'MiB');
      rec.figure(`server memory per client${which}${suffix}`, ((is - was) * 1024) / Math.max(1, there), 'KiB');
    });

    // Warm-up writes let the JIT settle; they are not counted.
    for (let i = 0; i < WARM_UP_WRITES; i += 1) await report(urls[0]!, writer, fixture.siteId, -i);
    await sleep(500);

    const writes: Write[] = [];
    const cpuAtStart = { server: serverCpu(), clients: clientCpu() };
    const started = now();
    for (let i = 0; i < WRITES; i += 1) {
      const due = started + i * INTERVAL;
      if (now() < due) await sleep(due - now());
      writes.push(await report(urls[0]!, writer, fixture.siteId, i + 1));
    }
    const ids = writes.map((w) => w.id);
    const expected = ok * WRITES;
    const deadline = now() + DELIVERY_WAIT_MS;
    for (;;) {
      const progress = await Promise.all(fleet.map((c) => c.ask({ type: 'progress', ids }, 'progress')));
      if (progress.reduce((n, p) => n + p.received, 0) >= expected || now() > deadline) break;
      await sleep(100);
    }
    const cpuPerWrite = { server: (serverCpu() - cpuAtStart.server) / WRITES, clients: (clientCpu() - cpuAtStart.clients) / WRITES };
    const collected = await Promise.all(fleet.map((c) => c.ask({ type: 'collect', ids }, 'receipts')));

    const committed = await commitBounds(ownerUrl, ids);
    const fromCommit: number[] = [];
    const fromFirst: number[] = [];
    const fromSent: number[] = [];
    const fromAnswer: number[] = [];
    const perNode: number[][] = nodes.map(() => []);
    const transactionToFirst: number[] = [];
    let missed = 0;
    for (const w of writes) {
      const commit = committed.get(w.id) ?? w.sent;
      const times = collected.flatMap((part) => part.receipts[w.id]!.map((t, client) => ({ t, node: part.nodes[client]! })));
      const arrived = times.filter((r) => r.t >= 0);
      missed += times.length - arrived.length;
      if (arrived.length === 0) continue;
      const first = arrived.reduce((m, r) => Math.min(m, r.t), Infinity);
      transactionToFirst.push(first - commit);
      for (const { t, node } of arrived) {
        fromCommit.push(t - commit);
        fromFirst.push(t - first);
        fromSent.push(t - w.sent);
        fromAnswer.push(t - w.answered);
        perNode[node]!.push(t - commit);
      }
    }
    const sort = (xs: number[]) => xs.sort((x, y) => x - y);
    for (const xs of [fromCommit, fromFirst, fromSent, fromAnswer, transactionToFirst, ...perNode]) sort(xs);
    const answers = sort(writes.map((w) => w.answered - w.sent));
    const duplicates = collected.reduce((n, c) => n + c.duplicates, 0);
    const disconnects = collected.reduce((n, c) => n + c.disconnects, 0);

    rec.figure(`write (POST /api/observations) answered, p50${suffix}`, percentile(answers, 50), 'ms');
    rec.figure(`deliveries measured${suffix}`, fromCommit.length, 'events');
    rec.figure(`push p50, commit → event received${suffix}`, percentile(fromCommit, 50), 'ms');
    rec.figure(`push p99, commit → event received${suffix}`, percentile(fromCommit, 99), 'ms');
    rec.figure(`push max, commit → event received${suffix}`, fromCommit.at(-1) ?? NaN, 'ms');
    rec.figure(`push p99, first client's receipt → event received (lower bound)${suffix}`, percentile(fromFirst, 99), 'ms');
    rec.figure(`write's transaction start → first client's receipt, p50 of writes${suffix}`, percentile(transactionToFirst, 50), 'ms');
    rec.figure(`push p99, write sent → event received${suffix}`, percentile(fromSent, 99), 'ms');
    rec.figure(`push p50, write answered → event received${suffix}`, percentile(fromAnswer, 50), 'ms');
    if (nodes.length > 1) {
      perNode.forEach((xs, i) => {
        rec.figure(
          `push p99 for clients of node ${i + 1}${i === 0 ? ' (the written one)' : ' (through Redis)'}${suffix}`,
          percentile(xs, 99),
          'ms',
        );
      });
    }
    rec.figure(`server CPU per write and its ${ok} deliveries${suffix}`, cpuPerWrite.server, 'ms');
    rec.figure(`client processes' CPU per write${suffix}`, cpuPerWrite.clients, 'ms');
    rec.figure(`missed deliveries${suffix}`, missed, 'events');
    if (committed.size < writes.length)
      rec.note(
        `${writes.length - committed.size} writes had no readable created_at${suffix}; their commit was taken as the time the write was sent.`,
      );
    if (missed > 0)
      rec.note(
        `MISSED DELIVERIES${suffix}: ${missed} of ${expected} events never arrived within ${DELIVERY_WAIT_MS / 1000} s of the last write.`,
      );
    if (duplicates > 0) rec.note(`${duplicates} events arrived twice at the same client${suffix}.`);
    if (disconnects > 0) rec.note(`${disconnects} clients were disconnected during the run${suffix}.`);
    return {
      p99: percentile(fromCommit, 99),
      p99FromFirst: percentile(fromFirst, 99),
      transaction: percentile(transactionToFirst, 50),
      clients: ok,
      missed,
    };
  } finally {
    await Promise.all(fleet.map((c) => c.close()));
  }
}

const rec = recorder('push');
const database = await openBenchDb((m) => console.log(`  ${m}`));
let nodes: BenchServer[] = [];
try {
  rec.note(
    `Load average when the run began: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} (the machine is shared; figures taken under load are pessimistic).`,
  );
  console.log(
    `push: ${CLIENTS} clients, ${WRITES} writes ${INTERVAL} ms apart, ${USERS} signed-in users sharing the sockets, ${CLIENT_PROCESSES} client process(es); ${database.where}`,
  );
  const fixture = await ensureFixture(database);

  nodes = [await startBenchServer(database)];
  const main = await scenario(rec, database.ownerUrl, fixture, '', nodes);
  await Promise.all(nodes.map((n) => n.stop()));
  nodes = [];
  rec.goal(
    `push p99 with ${main.clients} clients${main.clients === GOAL_CLIENTS ? '' : ` (the goal is set for ${GOAL_CLIENTS})`}`,
    main.p99,
    GOAL_P99_MS,
    'ms',
  );
  if (main.p99 > GOAL_P99_MS && main.p99FromFirst <= GOAL_P99_MS) {
    rec.note(
      `The goal is missed on the upper bound (${Math.round(main.p99)} ms) but met on the lower bound (${Math.round(main.p99FromFirst)} ms): the write's own transaction, before its commit, took up to ${Math.round(main.transaction)} ms (p50).`,
    );
  }

  if (args.redis) {
    const env = { REDIS_URL: args['redis-url'] };
    nodes = await Promise.all([startBenchServer(database, { env }), startBenchServer(database, { env })]);
    await scenario(rec, database.ownerUrl, fixture, 'Redis adapter, 2 nodes', nodes);
  }
  rec.note(
    `Clients ran in ${CLIENT_PROCESSES} separate process(es) on the same two cores as the server and PostgreSQL; their own event handling is inside the figures.`,
  );
  rec.note(
    "Commit → received is measured from the start of the write's transaction (the observation's created_at), which precedes its commit, so it is an upper bound; the first client's receipt follows the commit, so times from it are a lower bound. The server emits right after the commit and answers the write after emitting, so \"write answered → received\" can be negative.",
  );
  rec.save();
} finally {
  await Promise.all(nodes.map((n) => n.stop()));
  await database.close();
}
