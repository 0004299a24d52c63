import type { Audit } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers.js';
import { answer, answered, auditWorld, fireTemplate, getAudit, na, no, ok, scheduleOnce, yes, type World } from './audits-support.js';

/**
 * Issue 17, running an audit: every status change and who may make it, the transition table enforced,
 * scoring with conditional questions, the critical-failure notice while the audit runs, key findings
 * into actions, the review (approve and reject with remarks), and the free account's monthly limit.
 */

let t: TestApp;
let w: World;
let fire: Awaited<ReturnType<typeof fireTemplate>>;

beforeAll(async () => {
  t = await createTestApp();
  w = await auditWorld(t, 'auditrun');
  fire = await fireTemplate(t, w.people.manager.s);
}, 120_000);
afterAll(() => t?.close());

const status = async (id: string) => (await getAudit(t, w.people.manager.s, id)).status;

describe('the status machine on the server (start, complete, approve, reject out of order are refused)', () => {
  it('scheduled until started, then in progress; only its auditor starts it', async () => {
    const { auditId } = await scheduleOnce(t, w.people.manager.s, w, fire.id);
    const before = await getAudit(t, w.people.auditor.s, auditId);
    expect(before).toMatchObject({ status: 'scheduled', permissions: { start: true, answer: false, complete: false } });
    expect((await getAudit(t, w.people.manager.s, auditId)).permissions.start).toBe(false);

    // Another auditor, the manager (Audit update, not its auditor), a reader (no Audit update).
    expect((await call(t, w.people.auditor2.s, 'POST', `/api/v2/audits/${auditId}/start`, {})).json()).toMatchObject({ code: 'forbidden' });
    expect((await call(t, w.people.manager.s, 'POST', `/api/v2/audits/${auditId}/start`, {})).statusCode).toBe(403);
    expect((await call(t, w.people.reader.s, 'POST', `/api/v2/audits/${auditId}/start`, {})).statusCode).toBe(403);
    // Out of order: nothing to complete, answer or decide yet.
    expect((await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${auditId}/complete`, {})).statusCode).toBe(409);
    expect((await answer(t, w.people.auditor.s, auditId, fire.placed.id, [yes])).statusCode).toBe(409);
    expect((await call(t, w.people.admin.s, 'POST', `/api/v2/audits/${auditId}/decide`, { approve: true, comment: 'ok' })).statusCode).toBe(
      409,
    );
    expect(await status(auditId)).toBe('scheduled');

    const started = await ok<{ audit: Audit }>(
      await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${auditId}/start`, { comment: 'On site now' }),
    );
    expect(started.audit).toMatchObject({
      status: 'in_progress',
      started_by: { id: w.people.auditor.id },
      permissions: { answer: true, start: false },
    });
    expect(started.audit.timeline.map((e) => [e.event, e.comment])).toContainEqual(['started', 'On site now']);
    expect((await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${auditId}/start`, {})).statusCode).toBe(409);
  });

  it('completes only with every required question shown answered and the declaration accepted; then it awaits review', async () => {
    const { auditId } = await scheduleOnce(t, w.people.manager.s, w, fire.id);
    const s = w.people.auditor.s;
    await ok(await call(t, s, 'POST', `/api/v2/audits/${auditId}/start`, {}));
    await answered(t, s, auditId, fire.placed.id, [no]);
    const missing = await call(t, s, 'POST', `/api/v2/audits/${auditId}/complete`, { declaration_accepted: true });
    expect(missing.statusCode).toBe(409);
    expect(Object.keys(missing.json().fields).sort()).toEqual([`answers.${fire.exits.id}`, `answers.${fire.why.id}`].sort());
    await answered(t, s, auditId, fire.why.id, [{ choice: [fire.why.options[1]!.key] }]);
    await answered(t, s, auditId, fire.exits.id, [yes]);
    const noDeclaration = await call(t, s, 'POST', `/api/v2/audits/${auditId}/complete`, {});
    expect(noDeclaration.statusCode).toBe(400);
    expect(noDeclaration.json().fields).toEqual({ declaration_accepted: 'Accept the declaration to complete the audit.' });
    // Not its auditor.
    expect(
      (await call(t, w.people.auditor2.s, 'POST', `/api/v2/audits/${auditId}/complete`, { declaration_accepted: true })).statusCode,
    ).toBe(403);

    const done = await ok<{ audit: Audit }>(
      await call(t, s, 'POST', `/api/v2/audits/${auditId}/complete`, { declaration_accepted: true, comment: 'All seen' }),
    );
    expect(done.audit).toMatchObject({
      status: 'completed',
      declaration_accepted: true,
      review: { outcome: 'pending', mode: 'approve_right' },
    });
    expect(done.audit.score).toEqual({ obtained: 15, assigned: 25, percent: 60 });
    // Completed: no more answers, no second completion.
    expect((await answer(t, s, auditId, fire.exits.id, [no])).statusCode).toBe(409);
    expect((await call(t, s, 'POST', `/api/v2/audits/${auditId}/complete`, { declaration_accepted: true })).statusCode).toBe(409);
  });
});

/** Starts a fresh audit of the fire template and answers it whole; answers its id. */
async function completedAudit() {
  const { auditId } = await scheduleOnce(t, w.people.manager.s, w, fire.id);
  const s = w.people.auditor.s;
  await ok(await call(t, s, 'POST', `/api/v2/audits/${auditId}/start`, {}));
  await answered(t, s, auditId, fire.placed.id, [yes]);
  await answered(t, s, auditId, fire.exits.id, [yes]);
  await ok(await call(t, s, 'POST', `/api/v2/audits/${auditId}/complete`, { declaration_accepted: true }));
  return auditId;
}

describe('approval through the review workflow (no workflow: the approve right decides)', () => {
  it('approves with remarks; remarks are required both ways; the auditor, a reader and the manager may not decide', async () => {
    const id = await completedAudit();
    const noRemarks = await call(t, w.people.approver.s, 'POST', `/api/v2/audits/${id}/decide`, { approve: true });
    expect(noRemarks.statusCode).toBe(400);
    expect(noRemarks.json().fields.comment).toBe('Give your remarks (the reason, to reject).');
    expect((await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${id}/decide`, { approve: true, comment: 'mine' })).statusCode).toBe(
      403,
    );
    expect((await call(t, w.people.reader.s, 'POST', `/api/v2/audits/${id}/decide`, { approve: true, comment: 'x' })).statusCode).toBe(403);
    expect((await call(t, w.people.manager.s, 'POST', `/api/v2/audits/${id}/decide`, { approve: true, comment: 'x' })).statusCode).toBe(
      403,
    );
    expect((await getAudit(t, w.people.approver.s, id)).permissions.decide).toBe(true);

    const approved = await ok<{ audit: Audit }>(
      await call(t, w.people.approver.s, 'POST', `/api/v2/audits/${id}/decide`, { approve: true, comment: 'Well kept' }),
    );
    expect(approved.audit).toMatchObject({ status: 'approved', decided_by: { id: w.people.approver.id }, decision_comment: 'Well kept' });
    expect(approved.audit.timeline.map((e) => e.event)).toEqual(
      expect.arrayContaining(['created', 'started', 'completed', 'review_submitted', 'approved']),
    );
    // Approved is final.
    expect(
      (await call(t, w.people.approver.s, 'POST', `/api/v2/audits/${id}/decide`, { approve: false, comment: 'late' })).statusCode,
    ).toBe(409);
    expect((await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${id}/resume`, {})).statusCode).toBe(409);
  });

  it('rejects with the reason back to the auditor, who resumes, corrects and completes it again', async () => {
    const id = await completedAudit();
    const rejected = await ok<{ audit: Audit }>(
      await call(t, w.people.approver.s, 'POST', `/api/v2/audits/${id}/decide`, { approve: false, comment: 'Photos of the exits missing' }),
    );
    expect(rejected.audit).toMatchObject({ status: 'rejected', decision_comment: 'Photos of the exits missing' });
    // The manager cannot resume someone else's audit; its auditor can.
    expect((await call(t, w.people.manager.s, 'POST', `/api/v2/audits/${id}/resume`, {})).statusCode).toBe(403);
    const resumed = await ok<{ audit: Audit }>(
      await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${id}/resume`, { comment: 'Adding them' }),
    );
    expect(resumed.audit).toMatchObject({ status: 'in_progress', completed_at: null, decided_at: null });
    await answered(t, w.people.auditor.s, id, fire.notes.id, [{ text: 'Exits photographed' }]);
    const again = await ok<{ audit: Audit }>(
      await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${id}/complete`, { declaration_accepted: true }),
    );
    expect(again.audit.review).toMatchObject({ outcome: 'pending', round: 2 });
    await ok(await call(t, w.people.approver.s, 'POST', `/api/v2/audits/${id}/decide`, { approve: true, comment: 'Now complete' }));
    expect(await status(id)).toBe('approved');
  });
});

describe('answers: one idempotent PATCH each, conditions and the running score', () => {
  it('saves each answer as given, the same body twice changes nothing, and a hidden question takes no answer', async () => {
    const { auditId } = await scheduleOnce(t, w.people.manager.s, w, fire.id);
    const s = w.people.auditor.s;
    await ok(await call(t, s, 'POST', `/api/v2/audits/${auditId}/start`, {}));
    expect((await answer(t, s, auditId, fire.why.id, [{ choice: [fire.why.options[0]!.key] }])).statusCode).toBe(409);

    const first = await answered(t, s, auditId, fire.placed.id, [no], { remark: 'Two missing by the stairs' });
    expect(first.shown_question_ids).toContain(fire.why.id);
    expect(first.score).toEqual({ obtained: 0, assigned: 10, percent: 0 });
    const again = await answered(t, s, auditId, fire.placed.id, [no], { remark: 'Two missing by the stairs' });
    expect(again).toEqual({ ...first, answer: { ...first.answer!, answered_at: again.answer!.answered_at } });

    const why = await answered(t, s, auditId, fire.why.id, [{ choice: ['Being serviced'] }]);
    expect(why.score).toEqual({ obtained: 5, assigned: 15, percent: 33.3 });
    // Yes hides "why": its answer stays stored but leaves the score.
    const yesNow = await answered(t, s, auditId, fire.placed.id, [yes]);
    expect(yesNow.shown_question_ids).not.toContain(fire.why.id);
    expect(yesNow.score).toEqual({ obtained: 10, assigned: 10, percent: 100 });
    const na_ = await answered(t, s, auditId, fire.exits.id, [na]);
    expect(na_.score).toEqual({ obtained: 10, assigned: 10, percent: 100 });
    expect(na_.progress).toEqual({ shown: 3, answered: 2, missing_required: [] });
    // Cleared: the answer goes.
    const cleared = await answered(t, s, auditId, fire.exits.id, null);
    expect(cleared.answer).toBeNull();
    expect(cleared.progress.missing_required).toEqual([fire.exits.id]);
  });

  it('refuses an answer that does not fit its question, in the reader’s language', async () => {
    const { auditId } = await scheduleOnce(t, w.people.manager.s, w, fire.id);
    const s = w.people.auditor.s;
    await ok(await call(t, s, 'POST', `/api/v2/audits/${auditId}/start`, {}));
    const wrong = await call(
      t,
      s,
      'PATCH',
      `/api/modify_audits/${auditId}`,
      { question_id: fire.placed.id, cells: [{ choice: ['maybe'] }] },
      { 'accept-language': 'es' },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields).toEqual({ 'cells.0.choice': 'Dé una respuesta.' });
    expect((await answer(t, s, auditId, '00000000-0000-4000-8000-000000000000', [yes])).json().fields).toEqual({
      question_id: 'This question is not in the audit’s form.',
    });
    expect(
      (await answer(t, s, auditId, fire.notes.id, [{ text: 'ok' }], { attachment_ids: ['00000000-0000-4000-8000-000000000000'] }))
        .statusCode,
    ).toBe(400);
    expect((await getAudit(t, s, auditId)).answers).toEqual([]);
  });

  it('adds an option while answering, once, in this audit only', async () => {
    const { auditId } = await scheduleOnce(t, w.people.manager.s, w, fire.id);
    const s = w.people.auditor.s;
    await ok(await call(t, s, 'POST', `/api/v2/audits/${auditId}/start`, {}));
    await answered(t, s, auditId, fire.placed.id, [no]);
    const added = await answered(t, s, auditId, fire.why.id, [{ choice: ['Stolen'] }], { add_option: 'Stolen' });
    expect(added.question_options!.map((o) => o.label)).toEqual(['Missing', 'Being serviced', 'Stolen']);
    const twice = await answered(t, s, auditId, fire.why.id, [{ choice: ['Stolen'] }], { add_option: 'Stolen' });
    expect(twice.question_options).toHaveLength(3);
    const template = await ok<{ template: { sections: Array<{ questions: Array<{ id: string; options: unknown[] }> }> } }>(
      await call(t, w.people.manager.s, 'GET', `/api/audits/${fire.id}`),
    );
    expect(template.template.sections[0]!.questions.find((q) => q.id === fire.why.id)!.options).toHaveLength(2);
    expect((await answer(t, s, auditId, fire.exits.id, [yes], { add_option: 'Maybe' })).json().fields).toEqual({
      add_option: 'Options cannot be added to this question.',
    });
  });
});
