import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/platform/db/embedded.js';
import { PASSWORD } from './helpers.js';
import type { Fixture } from './observations-support.js';
import { freePort, waitUntil } from './process-helpers.js';
import {
  alive,
  api,
  observationBody,
  organisationOn,
  ready,
  signInOver,
  startApp,
  stopChild,
  tempDir,
  type Answer,
  type Node,
  type Session,
} from './faults-support.js';

/**
 * PostgreSQL restarted under a read and write load: the app process stays up, answers a clean 503
 * while the database is away, and works again by itself once it is back, job queue included (a mail
 * sent through pg-boss after the restart reaches the SMTP server).
 */
const WORKERS = 4;
const OUTAGE_MS = 3_000;

// Our own PostgreSQL: the machine's server is never the one restarted.
const pgDir = tempDir('bulwark-faults-pg-');
const filesDir = tempDir('bulwark-faults-pg-files-');
let pgPort = 0;
let pg: EmbeddedServer | undefined;
let node: Node | undefined;
let fixture: Fixture;

const received: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push(
        Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, ''),
      );
      callback();
    });
  },
});

const startPostgres = () => startEmbeddedPostgres(pgDir.dir, pgPort, () => {});

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  pgPort = await freePort();
  pg = await startPostgres();
  ({ fixture } = await organisationOn(pg.url, 'pgr'));
  node = startApp(await freePort(), {
    DATABASE_URL: pg.url,
    FILES_DIR: filesDir.dir,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    MAIL_FROM: 'ehs@bulwark.test',
  });
  await ready(node);
});

afterAll(async () => {
  try {
    await stopChild(node?.child);
    await pg?.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  } finally {
    pgDir.remove();
    filesDir.remove();
  }
});

/** A report with one action for the supervisor; the action's mail goes out through the job queue. */
async function reportAndAwaitMail(n: Node, s: Session, description: string) {
  const res = await api(n, s, 'POST', '/api/observations', observationBody(fixture, description, 1));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await waitUntil(`the mail about "${description}"`, () => received.some((m) => m.includes(description)), 60_000, 200);
}

describe('PostgreSQL restarted under load', () => {
  it('keeps the app process up, answers 503 while the database is away and recovers by itself', async () => {
    const n = node!;
    const pid = n.child.proc.pid;
    const s = await signInOver(n, 'pgr', 'manager@pgr.test', PASSWORD);
    await reportAndAwaitMail(n, s, 'before the restart');

    type Seen = Answer & { phase: 'up' | 'down' | 'back'; what: string };
    const seen: Seen[] = [];
    let phase: Seen['phase'] = 'up';
    let stop = false;
    let count = 0;
    const worker = async (w: number) => {
      while (!stop && count < 5_000) {
        count += 1;
        const read = await api(n, s, 'GET', '/api/v2/observations?per_page=5');
        seen.push({ ...read, phase, what: 'list' });
        const write = await api(n, s, 'POST', '/api/observations', observationBody(fixture, `pg-load ${w}-${count}`, 0));
        seen.push({ ...write, phase, what: 'report' });
        const profile = await api(n, s, 'GET', '/api/users/user_profile');
        seen.push({ ...profile, phase, what: 'profile' });
        // While the database is away answers come at once; a short pause keeps the loop from spinning.
        if (phase === 'down') await new Promise((r) => setTimeout(r, 50));
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    try {
      await waitUntil(
        'writes before the outage',
        () => seen.filter((x) => x.what === 'report' && x.status === 201).length >= 10,
        30_000,
        20,
      );
      phase = 'down';
      await pg!.stop();
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      expect(alive(n), `the app died while PostgreSQL was down:\n${n.child.output()}`).toBe(true);
      pg = await startPostgres();
      phase = 'back';
      // No restart of the app: the same process answers again once the database is back.
      await waitUntil(
        'a read and a write after the restart',
        async () => {
          const read = await api(n, s, 'GET', '/api/v2/observations?per_page=5');
          const write = await api(n, s, 'POST', '/api/observations', observationBody(fixture, 'probe after the restart', 0));
          return read.status === 200 && write.status === 201;
        },
        30_000,
        200,
      );
    } finally {
      stop = true;
      await load;
    }

    expect(alive(n), n.child.output()).toBe(true);
    expect(n.child.proc.pid).toBe(pid);
    const down = seen.filter((x) => x.phase === 'down');
    const unclean = seen.filter((x) => !(x.status >= 200 && x.status < 300) && !(x.status === 503 && isUnavailable(x.body)));
    const byStatus = (list: Seen[]) =>
      JSON.stringify(list.reduce<Record<number, number>>((acc, x) => ({ ...acc, [x.status]: (acc[x.status] ?? 0) + 1 }), {}));
    console.log(
      `[faults-postgres] ${seen.length} answers: before ${byStatus(seen.filter((x) => x.phase === 'up'))}, while down ${byStatus(down)}, after ${byStatus(seen.filter((x) => x.phase === 'back'))}`,
    );
    // Every request got an answer (none hung or was cut), and every failure was the clean 503.
    expect(unclean.slice(0, 5).map((x) => `${x.phase} ${x.what}: ${x.status} ${x.error ?? JSON.stringify(x.body)}`)).toEqual([]);
    expect(
      down.some((x) => x.status === 503),
      'the load met the outage',
    ).toBe(true);
    expect((await api(n, null, 'GET', '/api/v2/api_connection_checks')).status).toBe(200);
    // The job queue came back too.
    await reportAndAwaitMail(n, s, 'after the restart');
  }, 120_000);

  it('lets the app stop cleanly on SIGTERM while PostgreSQL is away', async () => {
    const n = node!;
    await pg!.stop();
    n.child.proc.kill('SIGTERM');
    // A stop that waits on the database would never end: the process must exit by itself, with code 0.
    const code = await Promise.race([n.child.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 30_000))]);
    expect(code, n.child.output()).toBe(0);
  }, 60_000);
});

function isUnavailable(body: unknown): boolean {
  const b = body as { errors?: unknown; code?: unknown } | null;
  return b?.code === 'unavailable' && Array.isArray(b.errors) && b.errors.length === 1 && typeof b.errors[0] === 'string';
}
