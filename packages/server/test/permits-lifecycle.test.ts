import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers.js';
import {
  act,
  approved,
  createPermit,
  footprint,
  getPermit,
  nightWork,
  permitWorld,
  requestBody,
  requested,
  type PermitWorld,
} from './permits-support.js';

/**
 * The lifecycle of PERMIT_TRANSITIONS (packages/domain/src/permits/lifecycle.ts) on the server: each
 * move from where the table allows it, by whom its right allows, and refused otherwise with nothing
 * written. Here no review workflow applies, so the approve right decides; permits-workflow.test.ts
 * runs approval through a workflow.
 */
let t: TestApp;
let w: PermitWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await permitWorld(t, 'ptwlife');
});
afterAll(() => t?.close());

const post = (who: keyof PermitWorld['people'], id: string, command: string, body: unknown = {}) =>
  call(t, w.people[who].s, 'POST', `/api/permit_requests/${id}/${command}`, body);

describe('submit: draft -> requested (Permit create, the draft’s authors)', () => {
  it('a draft is sent to the issuing officers, and then cannot be sent again', async () => {
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    expect(draft.status).toBe('draft');
    expect(draft.abilities).toMatchObject({ submit: true, edit: true, approve: false });
    const sent = await act(t, w.people.requester.s, draft.id, 'submit');
    expect(sent).toMatchObject({ status: 'requested', abilities: { submit: false, edit: false } });
    expect(sent.submitted_at).not.toBeNull();
    const again = await post('requester', draft.id, 'submit');
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0]).toBe('This is not possible while the permit is requested.');
  });

  it('needs a worker, the site, the times and every required answer; refuses them all at once and writes nothing', async () => {
    const { night } = await nightWork(t, w.people.requester.s, w.lifting);
    const draft = await createPermit(t, w.people.requester.s, {
      template_id: w.lifting,
      worker_ids: [],
      answers: {},
    });
    const before = await footprint(t, w.org.id);
    const res = await post('requester', draft.id, 'submit');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(
      ['answers.' + night[0]!.id, 'end_at', 'site_id', 'start_at', 'worker_ids'].sort(),
    );
    expect(res.json().fields.worker_ids).toBe('Add at least one worker.');
    expect(await footprint(t, w.org.id)).toEqual(before);
  });

  it('another member with Permit create does not see someone else’s draft; a reader may not submit at all', async () => {
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    expect((await post('colleague', draft.id, 'submit')).statusCode).toBe(404);
    expect((await post('reader', draft.id, 'submit')).statusCode).toBe(403);
    expect((await getPermit(t, w.people.requester.s, draft.id)).status).toBe('draft');
  });

  it('a request whose time has already passed is refused', async () => {
    const body = await requestBody(t, w, w.lifting, { start_at: '2020-01-01T08:00', end_at: '2020-01-01T16:00' });
    const res = await call(t, w.people.requester.s, 'POST', '/api/permit_requests', { ...body, submit: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('conflict');
  });
});

describe('approve and reject: requested -> approved | rejected (no workflow: the approve right decides)', () => {
  it('the issuer approves; the permit names them as issuing officer', async () => {
    const p = await requested(t, w, w.lifting);
    expect(p.review).toMatchObject({ mode: 'approve_right', outcome: 'pending' });
    const viewed = await getPermit(t, w.people.issuer.s, p.id);
    expect(viewed.abilities).toMatchObject({ approve: true, reject: true, decision: 'permit' });
    const done = await act(t, w.people.issuer.s, p.id, 'approve', { comment: 'Gas test seen' });
    expect(done.status).toBe('approved');
    expect(done.issuing_officers.map((o) => o.full_name)).toEqual(['Ivan Issuer']);
    expect(done.approved_at).not.toBeNull();
    expect(done.timeline.map((e) => e.kind)).toEqual(['created', 'submitted', 'approved']);
  });

  it('nobody without the approve right approves, and the requester never approves their own permit', async () => {
    const p = await requested(t, w, w.lifting);
    for (const who of ['requester', 'reader', 'closer'] as const) expect((await post(who, p.id, 'approve')).statusCode, who).toBe(403);
    expect((await post('nobody', p.id, 'approve')).statusCode).toBe(403);
    // The admin holds every right but requested this one: their place is left out (the engine's rule).
    const own = await createPermit(t, w.people.admin.s, { ...(await requestBody(t, w, w.lifting)), submit: true });
    expect((await call(t, w.people.admin.s, 'POST', `/api/permit_requests/${own.id}/approve`, {})).statusCode).toBe(403);
    expect((await getPermit(t, w.people.admin.s, p.id)).status).toBe('requested');
  });

  it('rejecting needs the reason and the reject right; a rejection is final', async () => {
    const p = await requested(t, w, w.lifting);
    const bare = await post('issuer', p.id, 'reject', {});
    expect(bare.statusCode).toBe(400);
    expect(bare.json().fields.comment).toBe('Give the reason.');
    const onlyApprove = await post('approverOnly', p.id, 'reject', { comment: 'No' });
    expect(onlyApprove.statusCode).toBe(403);
    const done = await act(t, w.people.issuer.s, p.id, 'reject', { comment: 'Gas test missing' });
    expect(done.status).toBe('rejected');
    expect(done.abilities).toMatchObject({ approve: false, reject: false, clone: false });
    expect((await post('issuer', p.id, 'approve')).statusCode).toBe(409);
  });

  it('an approval after the permit’s time has passed is refused (reject it, or clone it with new times)', async () => {
    const p = await requested(t, w, w.lifting);
    await t.deps.db.ownerPool.query(
      `update permits set end_at = now() - interval '1 minute', start_at = now() - interval '2 hours' where id = $1`,
      [p.id],
    );
    const res = await post('issuer', p.id, 'approve');
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0]).toBe('The time of this permit has passed: reject it, or clone it with new times.');
  });
});

describe('extensions: approved | extended | pending closure -> extended (extend right to ask, approve right to grant)', () => {
  it('the requester asks with the declaration; the issuer approves; the template’s 4 hours are added to the end', async () => {
    const p = await approved(t, w, w.lifting);
    expect(p.abilities.request_extension).toBe(false); // the issuer holds no extend right
    const bare = await post('requester', p.id, 'extensions', {});
    expect(bare.statusCode).toBe(400);
    expect(bare.json().fields.declaration).toBe('The declaration is required.');
    expect((await post('reader', p.id, 'extensions', { declaration: 'More time' })).statusCode).toBe(403);
    const asked = await act(t, w.people.requester.s, p.id, 'extensions', { declaration: p.template.extension_declaration });
    expect(asked).toMatchObject({ status: 'approved', extension_pending: true });
    expect((await post('requester', p.id, 'extensions', { declaration: 'Again' })).statusCode).toBe(409);
    const granted = await act(t, w.people.issuer.s, p.id, 'approve');
    expect(granted).toMatchObject({ status: 'extended', extension_pending: false });
    expect(new Date(granted.end_instant!).getTime() - new Date(p.end_instant!).getTime()).toBe(4 * 3_600_000);
    expect(granted.extensions.map((e) => e.state)).toEqual(['approved']);
    // An extension issues nothing new: the issuing officers stay the permit's.
    expect(granted.issuing_officers.map((o) => o.full_name)).toEqual(['Ivan Issuer']);
  });

  it('a refused extension leaves the end where it was; a requested permit cannot be extended', async () => {
    const p = await approved(t, w, w.lifting);
    await act(t, w.people.requester.s, p.id, 'extensions', { declaration: 'Crane late' });
    expect((await post('issuer', p.id, 'reject', {})).statusCode).toBe(400);
    const refused = await act(t, w.people.issuer.s, p.id, 'reject', { comment: 'Wind too strong' });
    expect(refused).toMatchObject({ status: 'approved', extension_pending: false, end_instant: p.end_instant });
    const fresh = await requested(t, w, w.lifting);
    expect((await post('requester', fresh.id, 'extensions', { declaration: 'x' })).statusCode).toBe(409);
  });
});

describe('revoke: issued -> revoked (revoke right, with the reason)', () => {
  it('the reason is required, the right is asked, everyone concerned is told, and a revoked permit is final', async () => {
    const p = await approved(t, w, w.lifting);
    expect((await post('issuer', p.id, 'revoke', {})).statusCode).toBe(400);
    expect((await post('requester', p.id, 'revoke', { comment: 'Stop' })).statusCode).toBe(403);
    const done = await act(t, w.people.issuer.s, p.id, 'revoke', { comment: 'Gas detected' });
    expect(done).toMatchObject({ status: 'revoked', revocation: { comment: 'Gas detected', by: { full_name: 'Ivan Issuer' } } });
    const { rows } = await t.deps.db.ownerPool.query<{ to_address: string }>(
      `select to_address from mail_outbox where organization_id = $1 and subject like $2 order by to_address`,
      [w.org.id, `%${done.number}%revoked%`],
    );
    expect(rows.map((r) => r.to_address)).toEqual([`hos@ptwlife.test`, `requester@ptwlife.test`]);
    expect((await post('closer', p.id, 'close', { answers: {} })).statusCode).toBe(409);
    expect((await post('issuer', p.id, 'revoke', { comment: 'Again' })).statusCode).toBe(409);
  });

  it('revoking while an extension awaits withdraws it; the reviewers may still end its round, which changes nothing', async () => {
    const p = await approved(t, w, w.lifting);
    await act(t, w.people.requester.s, p.id, 'extensions', { declaration: 'More time' });
    const revoked = await act(t, w.people.issuer.s, p.id, 'revoke', { comment: 'Stop now' });
    expect(revoked.extensions.map((e) => e.state)).toEqual(['withdrawn']);
    expect(revoked.abilities).toMatchObject({ approve: true, decision: 'settle' });
    const settled = await act(t, w.people.issuer.s, p.id, 'approve');
    expect(settled).toMatchObject({ status: 'revoked', end_instant: p.end_instant, review: { outcome: 'approved' } });
  });
});

describe('close: issued -> closed (close right, the closure checklist)', () => {
  it('the closure checklist’s required answers are asked; then the permit is closed for good', async () => {
    const p = await approved(t, w, w.lifting);
    const { closure } = await nightWork(t, w.people.requester.s, w.lifting);
    expect((await post('requester', p.id, 'close', { answers: {} })).statusCode).toBe(403);
    const missing = await post('closer', p.id, 'close', { answers: { [closure[0]!.id]: 'Yes' } });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields).sort()).toEqual([`answers.${closure[1]!.id}`, `answers.${closure[2]!.id}`].sort());
    const answers = { [closure[0]!.id]: 'Yes', [closure[1]!.id]: 'Yes', [closure[2]!.id]: 'Not applicable', [closure[3]!.id]: 'All clear' };
    const done = await act(t, w.people.closer.s, p.id, 'close', { answers, comment: 'Done early' });
    expect(done.status).toBe('closed');
    expect(done.closure?.answers[closure[3]!.id]).toEqual({ value: 'All clear', items: [] });
    expect((await post('issuer', p.id, 'revoke', { comment: 'x' })).statusCode).toBe(409);
    expect((await post('closer', p.id, 'close', { answers })).statusCode).toBe(409);
  });

  it('a permit still requested cannot be closed', async () => {
    const p = await requested(t, w, w.lifting);
    expect((await post('closer', p.id, 'close', { answers: {} })).statusCode).toBe(409);
  });
});
