import { formatObservationSerial } from '@bulwark/domain';
import { and, eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observations } from '../src/modules/observations/tables.js';
import { emailSubscriptions } from '../src/modules/settings/tables.js';
import { inTenant } from '../src/platform/db/db.js';
import { auditLog, mailOutbox, notifications } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';
import { setUpOrganisation, siteDate, siteTime, type Fixture } from './observations-support.js';

/**
 * Creating an observation (issue 13): the organisation's serial is locked from the statement that takes
 * it to the commit, so that statement writes everything that needs the serial (the observation, its
 * history entry, the serial in the head of safety's mail and notification) and nothing else runs
 * between it and the commit. These tests hold the result to the old one: every serial once and in
 * order, every text naming its own observation, nothing left by a refusal.
 */

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let f: Fixture;
let reporter: Session;
let supervisor: Session;

const seen: string[] = [];
let counting = false;
const originalQuery = pg.Client.prototype.query;
/** The commit, alone or after what the route helper sends with it. */
const COMMIT = /(^|;)\s*commit\s*$/i;

function body(over: Record<string, unknown> = {}) {
  return {
    type: 'unsafe_act',
    category_id: f.ppe,
    sub_category_id: f.gloves,
    description: 'Operator handling sheet metal without gloves',
    site_id: f.tokyo,
    site_node_id: f.tokyoDivision,
    observed_at: siteTime('Asia/Tokyo', -30),
    risk_level: 'high',
    action_required: false,
    comment: 'Told the operator on the spot.',
    anonymous: false,
    attachment_ids: [],
    actions: [],
    ...over,
  };
}

async function report(session: Session, over: Record<string, unknown> = {}) {
  const res = await call(t, session, 'POST', '/api/observations', body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; serial: number; serial_label: string };
}

/** What the head of safety (the manager of every site here) got about these observations. */
async function toldAbout(ids: string[]) {
  return inTenant(t.deps.db.app, org.id, async (tx) => ({
    notes: await tx
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, f.manager),
          inArray(
            notifications.link,
            ids.map((id) => `/observations/summary/${id}`),
          ),
        ),
      ),
    mails: (await tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'manager@obsc.test'))).filter((m) =>
      ids.some((id) => m.body.includes(`/observations/summary/${id}`)),
    ),
    history: await tx
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'Observation'), inArray(auditLog.entityId, ids))),
  }));
}

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'obsc');
  f = await setUpOrganisation(t, org.id, 'obsc');
  reporter = await signIn(t, 'obsc', 'reporter@obsc.test');
  supervisor = await signIn(t, 'obsc', 'supervisor@obsc.test');
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (counting) {
      const first = args[0] as string | { text?: string };
      seen.push(typeof first === 'string' ? first : (first?.text ?? '?'));
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
}, 120_000);

afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await t?.close();
});

describe('creating an observation', () => {
  it('takes the serial in its last statement: nothing runs between it and the commit', async () => {
    await report(reporter);
    // The first report's after-commit work (its webhook event's transaction) is over.
    await new Promise((r) => setTimeout(r, 300));
    seen.length = 0;
    counting = true;
    try {
      await report(reporter);
    } finally {
      counting = false;
    }
    expect(seen.filter((q) => /observation_serials/.test(q))).toHaveLength(1);
    // The request's own transaction, from its begin to its commit (its after-commit work follows).
    const taken = seen.findIndex((q) => /observation_serials/.test(q));
    const begin = seen.findLastIndex((q, i) => i < taken && /^begin/i.test(q.trim()));
    const commit = seen.findIndex((q, i) => i > taken && COMMIT.test(q));
    const own = seen.slice(begin, commit + 1);
    const serial = own.findIndex((q) => /observation_serials/.test(q));
    expect(own[serial]).toMatch(/insert into "observations"/);
    expect(own[serial]).toMatch(/insert into "audit_log"/);
    expect(own[serial + 1]).toMatch(COMMIT);
    console.log(`statements of a create (site, area, category and sub-category, mail to the head of safety): ${own.length}`);
    // Besides the route helper's (begin with the organisation, commit): the checks (site with its head,
    // area, category, sub-category: one statement), the mail's read and its write with the notification
    // (mailers/send.ts), the observation.
    const handler = own.filter((q) => !/^begin/i.test(q.trim()) && !/set_config\('app\./.test(q) && !COMMIT.test(q));
    expect(handler.length).toBeLessThanOrEqual(4);
  });

  it('numbers reports sent together once each and in order, every mail and notification naming its own', async () => {
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, n) => report(n % 2 ? reporter : supervisor, { description: `Together ${n}` })),
    );
    const serials = made.map((m) => m.serial).sort((x, y) => x - y);
    expect(new Set(serials).size).toBe(12);
    expect(serials.at(-1)! - serials[0]!).toBe(11);
    const stored = await inTenant(t.deps.db.app, org.id, (tx) =>
      tx
        .select({ id: observations.id, serial: observations.serial })
        .from(observations)
        .where(
          inArray(
            observations.id,
            made.map((m) => m.id),
          ),
        ),
    );
    expect(new Map(stored.map((o) => [o.id, o.serial]))).toEqual(new Map(made.map((m) => [m.id, m.serial])));

    const { notes, mails, history } = await toldAbout(made.map((m) => m.id));
    expect(notes).toHaveLength(12);
    expect(mails).toHaveLength(12);
    expect(history).toHaveLength(12);
    for (const m of made) {
      const label = formatObservationSerial(m.serial);
      expect(m.serial_label).toBe(label);
      const note = notes.find((n) => n.link === `/observations/summary/${m.id}`)!;
      expect(`${note.title} ${note.body}`).toContain(label);
      const mail = mails.find((x) => x.body.includes(`/observations/summary/${m.id}`))!;
      expect(mail.subject).toContain(label);
      expect(mail.body).toContain(label);
      const entry = history.find((h) => h.entityId === m.id)!;
      expect(entry).toMatchObject({ action: 'observation_created', changes: { serial: m.serial, source: 'staff', attachments: 0 } });
    }
    // The stand-in for the serial is gone from every text.
    for (const text of [...notes.flatMap((n) => [n.title, n.body]), ...mails.flatMap((m) => [m.subject, m.body])])
      expect(text).not.toMatch(/\[observation_id/);
  });

  it('a refusal after the serial was taken leaves nothing, the serial included', async () => {
    const before = await report(reporter);
    // The action is checked after the observation's statement: its responsible person is unknown.
    const res = await call(
      t,
      supervisor,
      'POST',
      '/api/observations',
      body({
        description: 'Refused with its action',
        action_required: true,
        actions: [
          {
            description: 'Nobody to do it',
            control_type: 'ppe',
            responsible_id: '00000000-0000-4000-8000-000000000000',
            due_date: siteDate('Asia/Tokyo', 5),
          },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(400);
    const left = await inTenant(t.deps.db.app, org.id, async (tx) => ({
      observations: await tx.select().from(observations).where(eq(observations.description, 'Refused with its action')),
      notes: (await tx.select().from(notifications).where(eq(notifications.userId, f.manager))).filter((n) =>
        n.title.includes('[observation_id'),
      ),
      mails: (await tx.select().from(mailOutbox)).filter((m) => m.subject.includes('[observation_id')),
    }));
    expect(left).toEqual({ observations: [], notes: [], mails: [] });
    expect((await report(reporter)).serial).toBe(before.serial + 1);
  });

  it('an anonymous report is announced without a name and records none', async () => {
    const made = await report(reporter, { anonymous: true });
    const { notes, mails, history } = await toldAbout([made.id]);
    expect(notes).toHaveLength(1);
    expect(mails[0]?.body).toContain(formatObservationSerial(made.serial));
    expect(mails[0]?.body).not.toContain('Rita Reporter');
    expect(history).toMatchObject([{ actorUserId: null, changes: { serial: made.serial } }]);
  });

  it('tells nobody who reported it themselves, and a head who unsubscribed only in the app', async () => {
    const manager = await signIn(t, 'obsc', 'manager@obsc.test');
    const own = await report(manager);
    expect(await toldAbout([own.id])).toMatchObject({ notes: [], mails: [] });

    await inTenant(t.deps.db.app, org.id, (tx) =>
      tx.insert(emailSubscriptions).values({ userId: f.manager, scenarioId: 'observation_reported', emailEnabled: false }),
    );
    const made = await report(reporter);
    const { notes, mails } = await toldAbout([made.id]);
    expect(mails).toEqual([]);
    expect(notes).toHaveLength(1);
    expect(`${notes[0]!.title} ${notes[0]!.body}`).toContain(formatObservationSerial(made.serial));
  });
});
