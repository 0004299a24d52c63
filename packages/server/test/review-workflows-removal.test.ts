import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decideReview, reviewOf, submitForReview, sweepReviews } from '../src/modules/workflows/review.js';
import { inTenant } from '../src/platform/db/db.js';
import { migrate } from '../src/platform/db/migrate.js';
import { userWithRights } from './categories-support.js';
import { call, createOrg, createTestApp, emptyDatabase, signIn, type Session, type TestApp } from './helpers.js';
import {
  addSite,
  as,
  emailOf,
  later,
  mailsAbout,
  member,
  newRecord,
  notificationsAbout,
  principalOf,
  workflow,
} from './review-workflows-support.js';

/** Spec 001 §6 with DECISIONS.md: a deactivated reviewer counts as deleted; the account creator takes over, in flight too. */
let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let owner: string;
let submitter: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'rwr');
  adminA = await signIn(t, a.subDomain, a.adminEmail);
  owner = (await member(t, a)).id;
  submitter = (await member(t, a)).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const submit = (id: string) => as(t, a.id, submitter, (tx, p) => submitForReview(tx, t.deps, p, 'audits', id));
const decide = (by: string, id: string) =>
  as(t, a.id, by, (tx, p) => decideReview(tx, t.deps, p, 'audits', id, { approve: true, comment: null }));
const view = (by: string, id: string) => inTenant(t.deps.db.app, a.id, async (tx) => reviewOf(tx, await principalOf(tx, by), 'audits', id));
const deactivate = async (by: Session, userId: string) => {
  const res = await call(t, by, 'PATCH', `/api/users/${userId}`, { status: 'Inactive' });
  expect(res.statusCode, res.body).toBe(200);
};
const reviewersOf = async (workflowId: string, by: Session = adminA) =>
  (await call(t, by, 'GET', `/api/workflows/${workflowId}`)).json() as {
    reviewers: Array<{ id: string }>;
    escalation_user: { id: string } | null;
  };
const place = async (label: string) => {
  const s = await addSite(t, a.id, label);
  return { s, rec: newRecord({ orgId: a.id, siteId: s, ownerId: owner }) };
};

describe('a reviewer deactivated through the users screen', () => {
  it('is replaced by the account creator in the workflow and in the review in flight, who is asked at once', async () => {
    const [x, y] = [(await member(t, a)).id, (await member(t, a)).id];
    const { s, rec } = await place('Current plant');
    const w = await workflow(t, adminA, { reviewer_ids: [x, y], lead_time_hours: 6, site_ids: [s] });
    const before = await submit(rec.id);
    expect(before.reviewers[0]!.user.id).toBe(x);
    const pushedToUser = vi.spyOn(t.deps.push, 'toUser');
    const pushedToOrg = vi.spyOn(t.deps.push, 'toOrganization');

    await deactivate(adminA, x);

    expect((await reviewersOf(w.id)).reviewers.map((r) => r.id)).toEqual([a.adminId, y]);
    const after = await view(a.adminId, rec.id);
    expect(after!.reviewers.map((r) => [r.user.id, r.state])).toEqual([
      [a.adminId, 'current'],
      [y, 'waiting'],
    ]);
    expect(after!.may_decide).toBe(true);
    expect(new Date(after!.reviewers[0]!.due_at!).getTime()).toBeGreaterThan(new Date(before.reviewers[0]!.due_at!).getTime());
    expect(after!.timeline.at(-1)).toMatchObject({ kind: 'reviewer_replaced', actor: null, reviewer: { id: x }, to: { id: a.adminId } });
    // Told in the app (pushed live) and by mail; the record's screens hear of it.
    const adminMail = await emailOf(t, a.id, a.adminId);
    expect((await mailsAbout(t, a.id, rec.label)).filter((m) => m.to_address === adminMail).map((m) => m.subject)).toEqual([
      `Audit ${rec.label} awaits your review`,
    ]);
    expect((await notificationsAbout(t, a.id, rec.id)).map((n) => n.user_id)).toEqual([x, a.adminId]);
    expect(pushedToUser).toHaveBeenCalledWith(a.adminId, expect.objectContaining({ channel: 'notification', change: 'created' }));
    expect(pushedToOrg).toHaveBeenCalledWith(a.id, { channel: 'actions', change: 'updated', id: rec.id });
    vi.restoreAllMocks();

    expect((await decide(a.adminId, rec.id)).reviewers[1]!.state).toBe('current');
    expect((await decide(y, rec.id)).outcome).toBe('approved');
  });

  it('is left out where the creator already reviews the round, and the round moves on', async () => {
    const z = (await member(t, a)).id;
    const { s, rec } = await place('Waiting plant');
    await workflow(t, adminA, { reviewer_ids: [a.adminId, z], lead_time_hours: 6, site_ids: [s] });
    await submit(rec.id);
    await deactivate(adminA, z);
    const after = await view(a.adminId, rec.id);
    expect(after!.reviewers.map((r) => [r.user.id, r.state])).toEqual([
      [a.adminId, 'current'],
      [z, 'skipped'],
    ]);
    expect(after!.timeline.at(-1)).toMatchObject({ kind: 'reviewer_replaced', reviewer: { id: z }, to: null });
    expect((await decide(a.adminId, rec.id)).outcome).toBe('approved');
  });

  it('in a parallel round: the creator takes the last open place; the others’ approvals stand', async () => {
    const [p1, p2] = [(await member(t, a)).id, (await member(t, a)).id];
    const { s, rec } = await place('Parallel removal plant');
    await workflow(t, adminA, { type: 'parallel', reviewer_ids: [p1, p2], lead_time_hours: 6, site_ids: [s] });
    await submit(rec.id);
    await decide(p1, rec.id);
    await deactivate(adminA, p2);
    const after = await view(a.adminId, rec.id);
    expect(after!.reviewers.map((r) => [r.user.id, r.state])).toEqual([
      [p1, 'approved'],
      [a.adminId, 'current'],
    ]);
    expect((await decide(a.adminId, rec.id)).outcome).toBe('approved');
  });

  it('hands an escalation in flight to the creator when the escalation user goes', async () => {
    const [rv, e] = [(await member(t, a)).id, (await member(t, a)).id];
    const { s, rec } = await place('Escalation plant');
    const w = await workflow(t, adminA, { reviewer_ids: [rv], lead_time_hours: 1, escalation_user_id: e, site_ids: [s] });
    const t0 = new Date();
    await submit(rec.id);
    expect(await sweepReviews(t.deps, later(t0, 2, 1))).toEqual({ reminded: 1, escalated: 1 });
    expect((await view(e, rec.id))!.may_decide).toBe(true);
    await deactivate(adminA, e);
    expect((await reviewersOf(w.id)).escalation_user?.id).toBe(a.adminId);
    const after = await view(a.adminId, rec.id);
    expect(after!.reviewers[0]!.escalated_to?.id).toBe(a.adminId);
    expect(after!.may_decide).toBe(true);
    expect(after!.timeline.at(-1)).toMatchObject({ kind: 'escalated', reviewer: { id: rv }, to: { id: a.adminId } });
    const adminMail = await emailOf(t, a.id, a.adminId);
    expect((await mailsAbout(t, a.id, rec.label)).filter((m) => m.to_address === adminMail).map((m) => m.subject)).toEqual([
      `Escalated to you: Audit ${rec.label}`,
    ]);
    expect((await decide(a.adminId, rec.id)).outcome).toBe('approved');
  });

  it('never makes the creator both a reviewer and the escalation user of a round', async () => {
    const solo = (await member(t, a)).id;
    const { s, rec } = await place('Both plant');
    const w = await workflow(t, adminA, { reviewer_ids: [solo], lead_time_hours: 1, escalation_user_id: a.adminId, site_ids: [s] });
    await submit(rec.id);
    await deactivate(adminA, solo);
    expect(await reviewersOf(w.id)).toMatchObject({ reviewers: [{ id: a.adminId }], escalation_user: null });
    const t0 = new Date();
    await sweepReviews(t.deps, later(t0, 5));
    const after = await view(a.adminId, rec.id);
    expect(after!.reviewers.map((r) => [r.user.id, r.state, r.escalated_to])).toEqual([[a.adminId, 'current', null]]);
    expect((await decide(a.adminId, rec.id)).outcome).toBe('approved');
  });

  it('a deactivated administrator is never the creator who takes over', async () => {
    const second = await userWithRights(
      t,
      a,
      [
        { subject: 'User', read: true, update: true },
        { subject: 'WorkFlow', read: true },
      ],
      true,
    );
    const { s, rec } = await place('Creator plant');
    const w = await workflow(t, adminA, { reviewer_ids: [a.adminId], lead_time_hours: 6, site_ids: [s] });
    await submit(rec.id);
    // The second administrator deactivates the first (the oldest): the oldest active one takes over.
    await deactivate(second.session, a.adminId);
    expect((await reviewersOf(w.id, second.session)).reviewers.map((r) => r.id)).toEqual([second.id]);
    const after = await view(second.id, rec.id);
    expect(after!.reviewers.map((r) => [r.user.id, r.state])).toEqual([[second.id, 'current']]);
    expect((await decide(second.id, rec.id)).outcome).toBe('approved');
  });
});

describe('0150 migration', () => {
  it('turns existing lead times in days into hours (×24)', async () => {
    const db = await emptyDatabase();
    const dir = path.resolve(fileURLToPath(new URL('../migrations/', import.meta.url)));
    const c = new pg.Client({ connectionString: db.ownerUrl });
    await c.connect();
    try {
      // The database as it stood before 0150, recorded as migrate() records it.
      await c.query(
        'create table schema_migrations (name text primary key, checksum text not null, applied_at timestamptz not null default now())',
      );
      for (const file of readdirSync(dir)
        .filter((f) => f.endsWith('.sql') && f < '0150')
        .sort()) {
        const text = readFileSync(path.join(dir, file), 'utf8');
        await c.query(text);
        await c.query('insert into schema_migrations (name, checksum) values ($1, $2)', [
          file,
          createHash('sha256').update(text).digest('hex'),
        ]);
      }
      const org = await c.query<{ id: string }>(`insert into organizations (name, sub_domain_name) values ('Old', 'old') returning id`);
      await c.query(
        `insert into workflows (organization_id, title, module, type, lead_time_days) values ($1, 'Week', 'audits', 'parallel', 7), ($1, 'Year', 'permits', 'sequential', 365)`,
        [org.rows[0]!.id],
      );
      await migrate(db.ownerUrl);
      const rows = await c.query<{ title: string; lead_time_hours: number }>('select title, lead_time_hours from workflows order by title');
      expect(rows.rows).toEqual([
        { title: 'Week', lead_time_hours: 168 },
        { title: 'Year', lead_time_hours: 8760 },
      ]);
      await expect(c.query(`update workflows set lead_time_hours = 8761`)).rejects.toThrow(/lead_time_hours/);
    } finally {
      await c.end();
      await db.drop();
    }
  });
});

// The review tables are walled like every tenant table (row-level security on, organisation first).
describe('the review tables', () => {
  it('are walled', async () => {
    const rows = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.execute<{ relname: string }>(
        sql`select relname from pg_class where relrowsecurity and relname in ('review_rounds', 'review_reviewers', 'review_events') order by relname`,
      ),
    );
    expect(rows.rows.map((r) => r.relname)).toEqual(['review_events', 'review_reviewers', 'review_rounds']);
  });
});
