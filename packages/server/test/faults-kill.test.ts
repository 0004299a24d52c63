import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Observation } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, inTenant } from '../src/platform/db/db.js';
import { freshDatabase, PASSWORD } from './helpers.js';
import type { Fixture } from './observations-support.js';
import { freePort, waitUntil } from './process-helpers.js';
import {
  alive,
  api,
  observationBody,
  organisationOn,
  PNG,
  pngForm,
  ready,
  signInOver,
  startApp,
  stopChild,
  tempDir,
  type Node,
  type Session,
} from './faults-support.js';

/**
 * A write load on a real server process, ended by SIGKILL in the middle: nothing acknowledged may be
 * lost, and nothing may be left half-written (each report is an observation, its two actions, their
 * history, an attachment link and a stored file, in one transaction).
 */
const WORKERS = 8;
// The kill comes once this many reports were acknowledged; the cap bounds the load if it never does.
const KILL_AFTER = 20;
const MAX_REPORTS = 600;
const ROUNDS = 2;
const ACTIONS_EACH = 2;

let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
const files = tempDir('bulwark-faults-kill-');
const nodes: Node[] = [];
let orgId = '';
let fixture: Fixture;

beforeAll(async () => {
  database = await freshDatabase();
  ({ orgId, fixture } = await organisationOn(database.ownerUrl, 'kill'));
});

afterAll(async () => {
  try {
    await Promise.all(nodes.map((n) => stopChild(n.child)));
    await database?.drop();
  } finally {
    files.remove();
  }
});

async function startNode(): Promise<Node> {
  // No job workers: nothing here is queued (no SMTP), and each of the restarts is quicker without them.
  const node = startApp(await freePort(), { DATABASE_URL: database!.ownerUrl, FILES_DIR: files.dir, JOBS: '0' });
  nodes.push(node);
  await ready(node);
  return node;
}

type Acked = { id: string; fileId: string; description: string };

describe('SIGKILL in the middle of a write load', () => {
  it('keeps every acknowledged report whole after a restart, and leaves no half-written one', async () => {
    const acked: Acked[] = [];
    const ackedFiles: string[] = [];
    const refused: string[] = [];
    let sent = 0;
    let s: Session | undefined;
    // Several kills at different moments give more chances to land between a commit and its answer.
    for (let round = 0; round < ROUNDS; round += 1) {
      const node = await startNode();
      const session = s ?? (s = await signInOver(node, 'kill', 'manager@kill.test', PASSWORD));
      let killed = false;
      const goal = acked.length + KILL_AFTER + round * 3;
      const worker = async (w: number) => {
        while (!killed && sent < MAX_REPORTS) {
          sent += 1;
          const description = `fault-load ${round}-${w}-${sent}`;
          const up = await api(node, session, 'POST', '/api/observations/attachments', pngForm(`${w}-${sent}.png`));
          if (up.status !== 201) {
            if (!killed) refused.push(`upload: ${up.status} ${JSON.stringify(up.body)} ${up.error ?? ''}`);
            return;
          }
          const fileId = (up.body as { file: { id: string } }).file.id;
          ackedFiles.push(fileId);
          const res = await api(node, session, 'POST', '/api/observations', observationBody(fixture, description, ACTIONS_EACH, [fileId]));
          if (res.status !== 201) {
            if (!killed) refused.push(`report: ${res.status} ${JSON.stringify(res.body)} ${res.error ?? ''}`);
            return;
          }
          acked.push({ id: (res.body as { id: string }).id, fileId, description });
        }
      };
      const load = Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
      await waitUntil('enough acknowledged reports', () => acked.length >= goal || refused.length > 0 || sent >= MAX_REPORTS, 60_000, 5);
      killed = true;
      node.child.proc.kill('SIGKILL');
      await node.child.exited;
      await load;
      expect(refused, 'requests refused before the kill').toEqual([]);
      expect(node.child.proc.signalCode).toBe('SIGKILL');
    }

    if (!s) throw new Error('no session was opened');
    const second = await startNode();
    // The session outlives the process: same secret, same database.
    for (const a of acked) {
      const res = await api(second, s, 'GET', `/api/observations/${a.id}`);
      expect(res.status, `acknowledged report ${a.description}`).toBe(200);
      const o = (res.body as { observation: Observation }).observation;
      expect(o.description).toBe(a.description);
      expect(o.actions.map((x) => x.description).sort()).toEqual(
        Array.from({ length: ACTIONS_EACH }, (_, i) => `${a.description}: action ${i + 1}`),
      );
      expect(o.attachments.map((x) => x.id)).toEqual([a.fileId]);
      expect(o.history.map((h) => h.action)).toContain('created');
    }
    for (const id of ackedFiles) {
      const res = await fetch(`${second.url}/api/files/${id}`, { headers: { 'x-tenant': s.tenant, authorization: `Bearer ${s.token}` } });
      expect(res.status, `acknowledged file ${id}`).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    }

    const db = connect(database!.appUrl, database!.ownerUrl, 1);
    try {
      const found = await inTenant(db.app, orgId, async (tx) => {
        const rows = async <T>(q: ReturnType<typeof sql>) => (await tx.execute(q)).rows as T[];
        return {
          // Each report as stored, with what hangs off it.
          reports: await rows<{
            id: string;
            description: string;
            actions: number;
            links: number;
            created: number;
            action_audits: number;
            notified: number;
          }>(sql`
            select o.id, o.description,
              (select count(*)::int from actions a where a.source_type = 'observation' and a.source_id = o.id) as actions,
              (select count(*)::int from observation_attachments l where l.observation_id = o.id) as links,
              (select count(*)::int from audit_log h where h.entity = 'Observation' and h.entity_id = o.id::text and h.action = 'observation_created') as created,
              (select count(*)::int from actions a join audit_log h on h.entity = 'Action' and h.entity_id = a.id::text and h.action = 'action_create'
                where a.source_type = 'observation' and a.source_id = o.id) as action_audits,
              (select count(*)::int from actions a join notifications n on n.user_id = a.responsible_id and n.link like '%/summary/' || a.id::text
                where a.source_type = 'observation' and a.source_id = o.id) as notified
            from observations o`),
          orphanActions: await rows<{ id: string }>(sql`
            select a.id from actions a where a.source_type = 'observation' and not exists (select 1 from observations o where o.id = a.source_id)`),
          // The responsible person's notice of each action is written with it, and never without it.
          orphanNotices: await rows<{ id: string }>(sql`
            select n.id from notifications n where n.link like '%/summary/%' and not exists (select 1 from actions a where n.link like '%/summary/' || a.id::text)`),
          files: await rows<{ id: string; storage_key: string; size_bytes: number }>(sql`select id, storage_key, size_bytes from files`),
          counters: (
            await rows<{
              used: string;
              sum: string;
              obs_last: number | null;
              obs_max: number | null;
              act_last: number | null;
              act_max: number | null;
            }>(sql`
            select o.storage_used_bytes::text as used, (select coalesce(sum(size_bytes), 0)::text from files) as sum,
              (select last_serial from observation_serials) as obs_last, (select max(serial) from observations) as obs_max,
              (select last_serial from action_serials) as act_last, (select max(serial) from actions) as act_max
            from organizations o where o.id = app_current_org()`)
          )[0]!,
        };
      });

      const ackedIds = new Set(acked.map((a) => a.id));
      const unacked = found.reports.filter((r) => !ackedIds.has(r.id));
      console.log(
        `[faults-kill] ${sent} reports started, ${acked.length} acknowledged, ${found.reports.length} stored after the kill (${unacked.length} committed without an answer); ${ackedFiles.length} files acknowledged, ${found.files.length} stored`,
      );
      expect(found.reports.length).toBeGreaterThanOrEqual(acked.length);
      for (const r of found.reports) {
        expect(r, `report ${r.description} is whole`).toEqual({
          id: r.id,
          description: r.description,
          actions: ACTIONS_EACH,
          links: 1,
          created: 1,
          action_audits: ACTIONS_EACH,
          notified: ACTIONS_EACH,
        });
      }
      expect(found.orphanActions, 'actions whose observation is missing').toEqual([]);
      expect(found.orphanNotices, 'notices of actions that are missing').toEqual([]);
      // A stored file row always has its bytes: they are written before the row commits.
      for (const f of found.files) {
        expect(f.storage_key).not.toBe('pending');
        expect(readFileSync(path.join(files.dir, f.storage_key)).equals(PNG), `bytes of file ${f.id}`).toBe(true);
      }
      // The quota counter and the serial counters moved in the same transactions as the rows.
      expect(found.counters.used).toBe(found.counters.sum);
      expect(found.counters.obs_last).toBe(found.counters.obs_max);
      expect(found.counters.act_last).toBe(found.counters.act_max);
    } finally {
      await db.close();
    }

    // And the restarted server goes on writing.
    const up = await api(second, s, 'POST', '/api/observations/attachments', pngForm('after.png'));
    expect(up.status).toBe(201);
    const after = await api(
      second,
      s,
      'POST',
      '/api/observations',
      observationBody(fixture, 'after the restart', 1, [(up.body as { file: { id: string } }).file.id]),
    );
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    expect(alive(second)).toBe(true);
  }, 120_000);
});
