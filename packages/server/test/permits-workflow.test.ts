import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers.js';
import { act, approved, getPermit, permitWorld, requested, type PermitWorld } from './permits-support.js';

/**
 * Approval through the review workflow of the permit's template and site (workflows/review.ts): the
 * workflow naming the template wins over the site's; the reviewer whose turn it is decides, whatever
 * their role holds; the extension is approved like the permit.
 */
let t: TestApp;
let w: PermitWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await permitWorld(t, 'ptwflow');
  const workflow = async (body: Record<string, unknown>) => {
    const res = await call(t, w.people.admin.s, 'POST', '/api/workflows', {
      module: 'permits',
      type: 'sequential',
      lead_time_hours: 4,
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  // The site's workflow: the reader reviews alone (a person without any approve or reject right).
  await workflow({ title: 'Site permits', reviewer_ids: [w.people.reader.id], site_ids: [w.site] });
  // Hot work's own workflow: the approver (approve only), then the issuer.
  await workflow({ title: 'Hot work', reviewer_ids: [w.people.approverOnly.id, w.people.issuer.id], form_ids: [w.hotWork] });
});
afterAll(() => t?.close());

const post = (who: keyof PermitWorld['people'], id: string, command: string, body: unknown = {}) =>
  call(t, w.people[who].s, 'POST', `/api/permit_requests/${id}/${command}`, body);

describe('the workflow of the template wins over the site’s; reviewers decide in turn', () => {
  it('hot work goes to its own workflow: the approver, then the issuer; both are its issuing officers', async () => {
    const p = await requested(t, w, w.hotWork);
    expect(p.review).toMatchObject({ mode: 'workflow', workflow: { title: 'Hot work' } });
    expect(p.review!.reviewers.map((r) => [r.user.full_name, r.state])).toEqual([
      ['Ada Approver', 'current'],
      ['Ivan Issuer', 'waiting'],
    ]);
    // The issuer holds the approve right but it is not their turn; the approve right does not skip the workflow.
    expect((await post('issuer', p.id, 'approve')).statusCode).toBe(409);
    const first = await act(t, w.people.approverOnly.s, p.id, 'approve');
    expect(first.status).toBe('requested');
    const done = await act(t, w.people.issuer.s, p.id, 'approve');
    expect(done.status).toBe('approved');
    expect(done.issuing_officers.map((o) => o.full_name)).toEqual(['Ada Approver', 'Ivan Issuer']);
  });

  it('a reviewer in turn may reject without the reject right: the workflow names them', async () => {
    const p = await requested(t, w, w.hotWork);
    const done = await act(t, w.people.approverOnly.s, p.id, 'reject', { comment: 'No fire watch' });
    expect(done.status).toBe('rejected');
  });

  it('other types follow the site’s workflow; someone who is not asked may not decide', async () => {
    const p = await requested(t, w, w.lifting);
    expect(p.review).toMatchObject({ mode: 'workflow', workflow: { title: 'Site permits' } });
    expect((await post('issuer', p.id, 'approve')).statusCode).toBe(403);
    expect((await getPermit(t, w.people.reader.s, p.id)).abilities).toMatchObject({ approve: true, reject: true });
    const done = await act(t, w.people.reader.s, p.id, 'approve');
    expect(done.status).toBe('approved');
  });

  it('the reviewers asked are told by the engine; the site’s head of safety hears of the request', async () => {
    const p = await requested(t, w, w.hotWork);
    const { rows } = await t.deps.db.ownerPool.query<{ to_address: string; subject: string }>(
      `select to_address, subject from mail_outbox where organization_id = $1 and subject like $2 order by to_address`,
      [w.org.id, `%${p.number}%`],
    );
    expect(rows.map((r) => r.to_address)).toEqual(['approver@ptwflow.test', 'hos@ptwflow.test']);
  });

  it('an extension goes through the same workflow, round after round', async () => {
    const p = await requested(t, w, w.hotWork);
    await act(t, w.people.approverOnly.s, p.id, 'approve');
    await act(t, w.people.issuer.s, p.id, 'approve');
    const asked = await act(t, w.people.requester.s, p.id, 'extensions', { declaration: 'Welds need more passes' });
    expect(asked.review).toMatchObject({ round: 2, outcome: 'pending' });
    expect(asked.review!.reviewers[0]).toMatchObject({ user: { full_name: 'Ada Approver' }, state: 'current' });
    await act(t, w.people.approverOnly.s, p.id, 'approve');
    const granted = await act(t, w.people.issuer.s, p.id, 'approve');
    expect(granted.status).toBe('extended');
  });
});

describe('with no workflow the approve right decides (and of its holders, the reject right rejects)', () => {
  it('a type without a workflow at a site without one', async () => {
    // Confined space: no workflow names it, and we remove the site's workflow for this check.
    await t.deps.db.ownerPool.query(`delete from workflows where organization_id = $1 and title = 'Site permits'`, [w.org.id]);
    const p = await approved(t, w, w.confined);
    expect(p.review?.mode).toBe('approve_right');
    expect(p.issuing_officers.map((o) => o.full_name)).toEqual(['Ivan Issuer']);
  });
});
