import { beforeAll, describe, expect, it } from 'vitest';
import { moduleJobs } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { PURGE_QUEUE } from '../src/platform/jobs/maintenance.js';
import { startServer } from '../src/runtime.js';
import { DEMO } from '../src/seed.js';
import { APP_SECRET, stopChild, tempDir } from './faults-support.js';
import { emptyDatabase } from './helpers.js';
import { nodeReady, rowCounts, schedulesOf, startNode } from './nodes-support.js';

/**
 * Two nodes started at the same moment on an empty database, ten times (issue 18: the demo seed's
 * "exists?" and "insert" raced outside any lock, and one node died on a duplicate key in 4 of 9 tries).
 * Every start-up step that writes (migrations, the app role, every module's demo seeds, job queues and
 * schedules) must leave each database exactly as one node alone leaves it: the reference below counts
 * the rows of every table, whatever modules exist, so a module added later is covered without a word.
 */
const TRIES = 10;
// Tries running at once: each is two processes on a 2-core machine.
const AT_ONCE = 2;

let reference: { counts: Record<string, number>; schedules: Record<string, string>; expected: string[] };

beforeAll(async () => {
  // One node alone, in this process, on an empty database: what every pair must also produce.
  const db = await emptyDatabase();
  const files = tempDir('bulwark-nodes-ref-');
  try {
    const running = await startServer(
      loadConfig({ DATABASE_URL: db.ownerUrl, APP_SECRET, SEED_DEMO: '1', DATA_DIR: files.dir, LOG_LEVEL: 'silent', PORT: '0' }),
      { logger: false, listen: false },
    );
    const expected = [PURGE_QUEUE, ...moduleJobs(running.deps).schedules.map((s) => s.name)].sort();
    await running.stop();
    reference = { counts: await rowCounts(db.ownerUrl), schedules: await schedulesOf(db.ownerUrl), expected };
  } finally {
    await db.drop();
    files.remove();
  }
});

async function tryOnce(n: number): Promise<string | null> {
  const db = await emptyDatabase();
  const env = { DATABASE_URL: db.ownerUrl, SEED_DEMO: '1', JOBS: '1', DRAIN_SECONDS: '0' };
  const nodes = [await startNode(env), await startNode(env)];
  try {
    const started = await Promise.allSettled(nodes.map((node) => nodeReady(node)));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) return `try ${n}: ${String(failed.reason)}`;
    const counts = await rowCounts(db.ownerUrl);
    const schedules = await schedulesOf(db.ownerUrl);
    expect(counts, `try ${n}: rows of every table`).toEqual(reference.counts);
    expect(schedules, `try ${n}: job schedules`).toEqual(reference.schedules);
    return null;
  } finally {
    await Promise.all(nodes.map((node) => stopChild(node.child)));
    await db.drop();
  }
}

describe('two nodes started together on an empty database', () => {
  it('one node alone seeds the demo and schedules every job of every module', () => {
    expect(reference.counts['public.organizations']).toBeGreaterThanOrEqual(2);
    expect(Object.keys(reference.schedules).sort()).toEqual(reference.expected);
    expect(reference.expected.length).toBeGreaterThan(3);
  });

  it(`both start, and leave the database as one node does, ${TRIES} times out of ${TRIES}`, { timeout: 1_200_000 }, async () => {
    const failures: string[] = [];
    for (let first = 0; first < TRIES; first += AT_ONCE) {
      const round = Array.from({ length: Math.min(AT_ONCE, TRIES - first) }, (_, i) => tryOnce(first + i + 1));
      for (const outcome of await Promise.all(round)) if (outcome) failures.push(outcome);
    }
    expect(failures, `${failures.length} of ${TRIES} tries lost a node (demo: ${DEMO.subDomain})`).toEqual([]);
  });
});
