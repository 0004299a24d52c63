import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowsModule } from '../src/modules/workflows/module.js';
import { decideReview, reviewOf, submitForReview, sweepReviews, REVIEWS_SWEEP_QUEUE } from '../src/modules/workflows/review.js';
import { reviewsWaitingFor } from '../src/modules/workflows/review-inbox.js';
import { inTenant } from '../src/platform/db/db.js';
import { asOrg } from './categories-support.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';
import {
  addSite,
  as,
  decided,
  emailOf,
  later,
  mailsAbout,
  member,
  newRecord,
  notificationsAbout,
  principalOf,
  refused,
  workflow,
} from './review-workflows-support.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let siteA: string;
let r: string[];
let esc: string;
let owner: string;
let submitter: string;

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'rwa');
  adminA = await signIn(t, a.subDomain, a.adminEmail);
  siteA = await addSite(t, a.id, 'Lead plant');
  r = [];
  for (let i = 0; i < 4; i += 1) r.push((await member(t, a)).id);
  esc = (await member(t, a)).id;
  owner = (await member(t, a)).id;
  submitter = (await member(t, a)).id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const submit = (by: string, id: string) => as(t, a.id, by, (tx, p) => submitForReview(tx, t.deps, p, 'audits', id));
const decide = (by: string, id: string, approve: boolean, comment: string | null = null) =>
  as(t, a.id, by, (tx, p) => decideReview(tx, t.deps, p, 'audits', id, { approve, comment }));
const view = (by: string, id: string) => inTenant(t.deps.db.app, a.id, async (tx) => reviewOf(tx, await principalOf(tx, by), 'audits', id));

// First in the file: the sweep serves every organisation, so its counts hold while no other round waits.
describe('lead time: a reminder after one, the escalation user after two (time moved forward)', () => {
  it('is a pg-boss job of the workflows module', () => {
    const jobs = workflowsModule.jobs!(t.deps);
    expect(jobs.schedules).toContainEqual({ name: REVIEWS_SWEEP_QUEUE, cron: '*/15 * * * *' });
    expect(typeof jobs.handlers[REVIEWS_SWEEP_QUEUE]).toBe('function');
  });

  it('reminds once, escalates once, and lets the escalation user decide in the late reviewer’s place', async () => {
    await workflow(t, adminA, { reviewer_ids: [r[0], r[1]], lead_time_hours: 2, escalation_user_id: esc, site_ids: [siteA] });
    const rec = newRecord({ orgId: a.id, siteId: siteA, ownerId: owner });
    const t0 = new Date();
    const first = await submit(submitter, rec.id);
    expect(first.lead_time_hours).toBe(2);
    const due = new Date(first.reviewers[0]!.due_at!).getTime();
    expect(due - new Date(first.submitted_at).getTime()).toBe(2 * 3_600_000);

    expect(await sweepReviews(t.deps, later(t0, 1))).toEqual({ reminded: 0, escalated: 0 });
    expect(await sweepReviews(t.deps, later(t0, 2, 1))).toEqual({ reminded: 1, escalated: 0 });
    expect(await sweepReviews(t.deps, later(t0, 2, 2))).toEqual({ reminded: 0, escalated: 0 });
    const reminded = await view(r[0]!, rec.id);
    expect(reminded!.reviewers[0]!.reminded_at).not.toBeNull();
    expect(reminded!.timeline.map((e) => [e.kind, e.reviewer?.id ?? null])).toContainEqual(['reminded', r[0]]);
    const r0Mail = await emailOf(t, a.id, r[0]!);
    expect((await mailsAbout(t, a.id, rec.label)).filter((m) => m.to_address === r0Mail).map((m) => m.subject)).toEqual([
      `Audit ${rec.label} awaits your review`,
      `Reminder: Audit ${rec.label} awaits your review`,
    ]);
    expect(await view(esc, rec.id).then((s) => s!.may_decide)).toBe(false);

    expect(await sweepReviews(t.deps, later(t0, 4, 1))).toEqual({ reminded: 0, escalated: 1 });
    expect(await sweepReviews(t.deps, later(t0, 5))).toEqual({ reminded: 0, escalated: 0 });
    const escalated = await view(esc, rec.id);
    expect(escalated!.reviewers[0]!.escalated_to?.id).toBe(esc);
    expect(escalated!.may_decide).toBe(true);
    expect(escalated!.timeline.at(-1)).toMatchObject({ kind: 'escalated', reviewer: { id: r[0] }, to: { id: esc }, actor: null });
    const escMail = await emailOf(t, a.id, esc);
    expect((await mailsAbout(t, a.id, rec.label)).filter((m) => m.to_address === escMail).map((m) => m.subject)).toEqual([
      `Escalated to you: Audit ${rec.label}`,
    ]);
    expect((await notificationsAbout(t, a.id, rec.id)).map((n) => n.user_id)).toEqual([r[0], r[0], esc]);

    // The escalation user decides in r0's place; r1's own lead time starts now.
    const afterEsc = await decide(esc, rec.id, true, 'Approved for the absent reviewer');
    expect(afterEsc.reviewers[0]).toMatchObject({
      state: 'approved',
      decided_by: { id: esc },
      comment: 'Approved for the absent reviewer',
    });
    expect(afterEsc.reviewers[1]!.state).toBe('current');
    expect(afterEsc.timeline.at(-1)).toMatchObject({ kind: 'approved', actor: { id: esc }, reviewer: { id: r[0] } });
    // A sweep that comes late does both at once for r1: reminder and escalation.
    expect(await sweepReviews(t.deps, later(t0, 6))).toEqual({ reminded: 1, escalated: 1 });
    // The late reviewer may still decide themself.
    const done = await decide(r[1]!, rec.id, true);
    expect(done.outcome).toBe('approved');
    expect(await sweepReviews(t.deps, later(t0, 100))).toEqual({ reminded: 0, escalated: 0 });
  });

  it('reminds each parallel reviewer, and without an escalation user only reminds', async () => {
    const site = await addSite(t, a.id, 'Parallel lead plant');
    await workflow(t, adminA, { type: 'parallel', reviewer_ids: [r[2], r[3]], lead_time_hours: 1, site_ids: [site] });
    const rec = newRecord({ orgId: a.id, siteId: site, ownerId: owner });
    const t0 = new Date();
    await submit(submitter, rec.id);
    expect(await sweepReviews(t.deps, later(t0, 1, 1))).toEqual({ reminded: 2, escalated: 0 });
    expect(await sweepReviews(t.deps, later(t0, 10))).toEqual({ reminded: 0, escalated: 0 });
    await decide(r[2]!, rec.id, false, 'Missing evidence');
    expect(await sweepReviews(t.deps, later(t0, 20))).toEqual({ reminded: 0, escalated: 0 });
  });
});

describe('sequential review', () => {
  it('passes reviewer by reviewer, then tells the module, the owner and the submitter', async () => {
    const site = await addSite(t, a.id, 'Sequential plant');
    const w = await workflow(t, adminA, {
      title: 'Two-step audit review',
      reviewer_ids: [r[0], r[1]],
      lead_time_hours: 8,
      site_ids: [site],
    });
    const rec = newRecord({ orgId: a.id, siteId: site, ownerId: owner });
    const s = await submit(submitter, rec.id);
    expect(s).toMatchObject({
      outcome: 'pending',
      round: 1,
      mode: 'workflow',
      workflow: { id: w.id, title: 'Two-step audit review', type: 'sequential' },
      submitted_by: { id: submitter },
      may_decide: false,
    });
    expect(s.reviewers.map((x) => [x.user.id, x.state])).toEqual([
      [r[0], 'current'],
      [r[1], 'waiting'],
    ]);
    expect((await view(r[0]!, rec.id))!.may_decide).toBe(true);
    expect((await view(r[1]!, rec.id))!.may_decide).toBe(false);
    expect((await notificationsAbout(t, a.id, rec.id)).map((n) => n.user_id)).toEqual([r[0]]);

    await refused(decide(r[1]!, rec.id, true), 'conflict', 'reviews.errors.notYourTurn');
    await refused(decide(esc, rec.id, true), 'forbidden', 'reviews.errors.notReviewer');
    await refused(decide(submitter, rec.id, true), 'forbidden', 'reviews.errors.ownSubmission');

    const one = await decide(r[0]!, rec.id, true, 'Evidence complete');
    expect(one.reviewers.map((x) => x.state)).toEqual(['approved', 'current']);
    expect(decided.filter((d) => d.recordId === rec.id)).toEqual([]);
    const two = await decide(r[1]!, rec.id, true);
    expect(two.outcome).toBe('approved');
    expect(two.decided_at).not.toBeNull();
    expect(decided.filter((d) => d.recordId === rec.id)).toEqual([{ recordId: rec.id, outcome: 'approved', userId: r[1], comment: null }]);
    expect(two.timeline.map((e) => [e.kind, e.actor?.id ?? null, e.comment])).toEqual([
      ['submitted', submitter, null],
      ['approved', r[0], 'Evidence complete'],
      ['approved', r[1], null],
      ['closed', null, null],
    ]);
    expect(two.timeline.at(-1)!.outcome).toBe('approved');

    // One transaction's mails share their instant: compared in any order.
    const subjects = (await mailsAbout(t, a.id, rec.label)).map((m) => `${m.to_address}: ${m.subject}`);
    const [ownerMail, submitterMail, r0Mail, r1Mail] = await Promise.all(
      [owner, submitter, r[0]!, r[1]!].map((id) => emailOf(t, a.id, id)),
    );
    expect(subjects.sort()).toEqual(
      [
        `${r0Mail}: Audit ${rec.label} awaits your review`,
        `${r1Mail}: Audit ${rec.label} awaits your review`,
        `${ownerMail}: Audit ${rec.label} approved`,
        `${submitterMail}: Audit ${rec.label} approved`,
      ].sort(),
    );
    await refused(decide(r[1]!, rec.id, true), 'conflict', 'reviews.errors.notPending');
  });
});

describe('parallel review', () => {
  it('needs every reviewer, in any order', async () => {
    const site = await addSite(t, a.id, 'Parallel plant');
    await workflow(t, adminA, { type: 'parallel', reviewer_ids: [r[0], r[1], r[2]], lead_time_hours: 8, site_ids: [site] });
    const rec = newRecord({ orgId: a.id, siteId: site, ownerId: owner });
    const s = await submit(submitter, rec.id);
    expect(s.reviewers.map((x) => x.state)).toEqual(['current', 'current', 'current']);
    expect((await notificationsAbout(t, a.id, rec.id)).map((n) => n.user_id).sort()).toEqual([r[0], r[1], r[2]].sort());
    expect((await decide(r[2]!, rec.id, true)).outcome).toBe('pending');
    expect((await decide(r[0]!, rec.id, true)).outcome).toBe('pending');
    await refused(decide(r[0]!, rec.id, true), 'forbidden', 'reviews.errors.notReviewer');
    const done = await decide(r[1]!, rec.id, true);
    expect(done.outcome).toBe('approved');
    expect(done.reviewers.map((x) => x.state)).toEqual(['approved', 'approved', 'approved']);
    expect(decided.filter((d) => d.recordId === rec.id).map((d) => d.outcome)).toEqual(['approved']);
  });
});

describe('rejection and resubmission', () => {
  let site: string;
  let wfId: string;
  const rec = { id: '', label: '' };

  it('refuses a rejection without a reason and changes nothing', async () => {
    site = await addSite(t, a.id, 'Reject plant');
    wfId = (await workflow(t, adminA, { type: 'parallel', reviewer_ids: [r[0], r[1]], lead_time_hours: 8, site_ids: [site] })).id;
    Object.assign(rec, newRecord({ orgId: a.id, siteId: site, ownerId: owner }));
    await submit(submitter, rec.id);
    for (const comment of [null, '   ']) {
      const err = await refused(decide(r[0]!, rec.id, false, comment), 'validation_failed');
      expect(err.options.fields).toEqual({ comment: 'reviews.validation.reasonRequired' });
    }
    const s = await view(r[0]!, rec.id);
    expect(s!.reviewers.map((x) => x.state)).toEqual(['current', 'current']);
    expect(s!.timeline.map((e) => e.kind)).toEqual(['submitted']);
  });

  it('ends the round on a rejection with a reason; the record goes back to its owner', async () => {
    const s = await decide(r[0]!, rec.id, false, 'Gas test missing');
    expect(s.outcome).toBe('rejected');
    expect(s.reviewers.map((x) => x.state)).toEqual(['rejected', 'waiting']);
    expect(s.may_decide).toBe(false);
    expect(decided.filter((d) => d.recordId === rec.id)).toEqual([
      { recordId: rec.id, outcome: 'rejected', userId: r[0], comment: 'Gas test missing' },
    ]);
    expect(s.timeline.slice(-2)).toMatchObject([
      { kind: 'rejected', actor: { id: r[0] }, comment: 'Gas test missing' },
      { kind: 'closed', outcome: 'rejected' },
    ]);
    const ownerMail = await emailOf(t, a.id, owner);
    const toOwner = (await mailsAbout(t, a.id, rec.label)).filter((m) => m.to_address === ownerMail);
    expect(toOwner.map((m) => m.subject)).toEqual([`Audit ${rec.label} rejected`]);
    expect(toOwner[0]!.body).toContain('Reason: Gas test missing');
    await refused(decide(r[1]!, rec.id, true), 'conflict', 'reviews.errors.notPending');
  });

  it('starts a new round with the workflow as it is then; one round waits at a time', async () => {
    const res = await call(t, adminA, 'PATCH', `/api/workflows/${wfId}`, { type: 'sequential', reviewer_ids: [r[2]], lead_time_hours: 3 });
    expect(res.statusCode, res.body).toBe(200);
    const s = await submit(owner, rec.id);
    expect(s).toMatchObject({ round: 2, outcome: 'pending', lead_time_hours: 3, workflow: { type: 'sequential' } });
    expect(s.reviewers.map((x) => [x.user.id, x.state])).toEqual([[r[2], 'current']]);
    expect(s.timeline.map((e) => [e.round, e.kind])).toEqual([
      [1, 'submitted'],
      [1, 'rejected'],
      [1, 'closed'],
      [2, 'submitted'],
    ]);
    await refused(submit(owner, rec.id), 'conflict', 'reviews.errors.alreadyPending');
    expect((await decide(r[2]!, rec.id, true)).outcome).toBe('approved');
  });
});

describe('nobody reviews their own submission', () => {
  it('leaves the submitter and the owner out; with nobody left the approve right decides', async () => {
    const site = await addSite(t, a.id, 'Own plant');
    await workflow(t, adminA, { reviewer_ids: [submitter, r[0], owner], lead_time_hours: 8, site_ids: [site] });
    const rec = newRecord({ orgId: a.id, siteId: site, ownerId: owner });
    const s = await submit(submitter, rec.id);
    expect(s.reviewers.map((x) => [x.user.id, x.state])).toEqual([
      [submitter, 'skipped'],
      [r[0], 'current'],
      [owner, 'skipped'],
    ]);
    expect(s.timeline.filter((e) => e.kind === 'skipped').map((e) => e.reviewer?.id)).toEqual([submitter, owner]);
    expect((await decide(r[0]!, rec.id, true)).outcome).toBe('approved');

    const solo = await addSite(t, a.id, 'Solo plant');
    await workflow(t, adminA, { reviewer_ids: [owner], lead_time_hours: 8, site_ids: [solo] });
    const mine = newRecord({ orgId: a.id, siteId: solo, ownerId: owner });
    const only = await submit(owner, mine.id);
    expect(only).toMatchObject({ mode: 'approve_right', workflow: { type: 'sequential' }, may_decide: false });
    const approver = await member(t, a, true);
    expect((await view(approver.id, mine.id))!.may_decide).toBe(true);
    expect((await decide(approver.id, mine.id, true)).outcome).toBe('approved');
  });
});

describe('no workflow: the module’s approve right decides', () => {
  it('lets anyone holding it approve or reject, and nobody else', async () => {
    const site = await addSite(t, a.id, 'Unreviewed plant');
    const approver = await member(t, a, true);
    const approvingSubmitter = await member(t, a, true);
    const rec = newRecord({ orgId: a.id, siteId: site, ownerId: owner });
    const s = await submit(approvingSubmitter.id, rec.id);
    expect(s).toMatchObject({ mode: 'approve_right', workflow: null, reviewers: [], lead_time_hours: null, may_decide: false });
    expect((await view(approver.id, rec.id))!.may_decide).toBe(true);
    expect((await view(r[0]!, rec.id))!.may_decide).toBe(false);
    await refused(decide(r[0]!, rec.id, true), 'forbidden');
    // Holding the right is not enough to decide one's own submission.
    await refused(decide(approvingSubmitter.id, rec.id, true), 'forbidden', 'reviews.errors.ownSubmission');
    const done = await decide(approver.id, rec.id, false, 'Photos unreadable');
    expect(done).toMatchObject({ outcome: 'rejected' });
    expect(done.timeline.map((e) => [e.kind, e.actor?.id ?? null])).toEqual([
      ['submitted', approvingSubmitter.id],
      ['rejected', approver.id],
      ['closed', null],
    ]);
    // With no workflow nobody is asked: no mail before the decision.
    expect((await mailsAbout(t, a.id, rec.label)).map((m) => m.subject)).toEqual([
      `Audit ${rec.label} rejected`,
      `Audit ${rec.label} rejected`,
    ]);
  });
});

describe('which workflow applies', () => {
  it('a workflow naming the record’s form wins over the site’s; another organisation’s never applies', async () => {
    const b = await createOrg(t, 'rwb');
    const adminB = await signIn(t, b.subDomain, b.adminEmail);
    const siteB = await addSite(t, b.id, 'B plant');
    const form = '0190a0a0-0000-7000-8000-0000000000f7';
    const bWorkflow = await workflow(t, adminB, { reviewer_ids: [b.adminId], lead_time_hours: 1, site_ids: [siteB], form_ids: [form] });
    const site = await addSite(t, a.id, 'Form plant');
    await workflow(t, adminA, { title: 'Site flow', reviewer_ids: [r[0]], lead_time_hours: 5, site_ids: [site] });
    // B's workflow names this form, but A's record is A's.
    const rec = newRecord({ orgId: a.id, siteId: site, ownerId: owner, formId: form });
    const s = await submit(submitter, rec.id);
    expect(s.workflow?.title).toBe('Site flow');
    expect(s.workflow?.id).not.toBe(bWorkflow.id);

    const formFlow = await workflow(t, adminA, {
      title: 'Form flow',
      reviewer_ids: [r[1]],
      lead_time_hours: 5,
      site_ids: [],
      form_ids: [form],
    });
    const second = newRecord({ orgId: a.id, siteId: site, ownerId: owner, formId: form });
    expect((await submit(submitter, second.id)).workflow).toMatchObject({ id: formFlow.id, title: 'Form flow' });

    const elsewhere = await addSite(t, a.id, 'No flow plant');
    const third = newRecord({ orgId: a.id, siteId: elsewhere, ownerId: owner, formId: '0190a0a0-0000-7000-8000-0000000000f8' });
    expect((await submit(submitter, third.id)).mode).toBe('approve_right');
    // Another organisation sees no review of A's record.
    expect(await inTenant(t.deps.db.app, b.id, async (tx) => reviewOf(tx, await principalOf(tx, b.adminId), 'audits', rec.id))).toBeNull();
    for (const id of [rec.id, second.id]) await decide(id === rec.id ? r[0]! : r[1]!, id, true);
    await decide((await member(t, a, true)).id, third.id, true);
  });
});

describe('a failing module hook', () => {
  it('writes nothing of the decision', async () => {
    const { hook } = await import('./review-workflows-support.js');
    const site = await addSite(t, a.id, 'Hook plant');
    await workflow(t, adminA, { reviewer_ids: [r[0]], lead_time_hours: 5, site_ids: [site] });
    const rec = newRecord({ orgId: a.id, siteId: site, ownerId: owner });
    await submit(submitter, rec.id);
    hook.fail = true;
    await expect(decide(r[0]!, rec.id, true)).rejects.toThrow('the module refused');
    hook.fail = false;
    const s = await view(r[0]!, rec.id);
    expect(s!.outcome).toBe('pending');
    expect(s!.reviewers[0]!.state).toBe('current');
    expect((await mailsAbout(t, a.id, rec.label)).map((m) => m.subject)).toEqual([`Audit ${rec.label} awaits your review`]);
    expect((await decide(r[0]!, rec.id, true)).outcome).toBe('approved');
    const n = await asOrg<{ n: number }>(t, a.id, sql`select count(*)::int as n from review_rounds where record_id = ${rec.id}`);
    expect(n[0]!.n).toBe(1);
  });
});

describe('what waits for whom (the home’s "Waiting for my review")', () => {
  const waiting = (by: string) =>
    inTenant(t.deps.db.app, a.id, async (tx) => (await reviewsWaitingFor(tx, await principalOf(tx, by))).map((w) => w.recordId));

  it('lists a round for the reviewer whose turn it is only, then for the next one, and never for the submitter', async () => {
    const site = await addSite(t, a.id, 'Inbox plant');
    await workflow(t, adminA, { reviewer_ids: [r[0], r[1]], lead_time_hours: 24, site_ids: [site] });
    const rec = newRecord({ orgId: a.id, siteId: site, ownerId: owner });
    await submit(submitter, rec.id);
    expect(await waiting(r[0]!)).toContain(rec.id);
    expect(await waiting(r[1]!)).not.toContain(rec.id);
    expect(await waiting(submitter)).not.toContain(rec.id);
    await decide(r[0]!, rec.id, true);
    expect(await waiting(r[0]!)).not.toContain(rec.id);
    expect(await waiting(r[1]!)).toContain(rec.id);
    await decide(r[1]!, rec.id, true);
    expect(await waiting(r[1]!)).not.toContain(rec.id);
  });
});
