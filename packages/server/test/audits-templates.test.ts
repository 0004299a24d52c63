import type { AuditTemplateDetail } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers.js';
import { auditWorld, fireTemplate, makeFreeAccount, ok, question, scheduleOnce, type World } from './audits-support.js';

/**
 * Issue 17, templates (/audit-forms, Audit Template rights): sections and questions in order with the
 * spec's extras (conditions, notices, row headers, add options, critical), the section calls, cloning,
 * deleting only what nothing was made from, and the free account's template limit.
 */

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await auditWorld(t, 'audittpl');
}, 120_000);
afterAll(() => t?.close());

const detail = async (id: string) =>
  (await ok<{ template: AuditTemplateDetail }>(await call(t, w.people.manager.s, 'GET', `/api/audits/${id}`))).template;

describe('templates and their sections', () => {
  it('keeps ordered sections of ordered questions with their options, scores, conditions and extras', async () => {
    const fire = await fireTemplate(t, w.people.manager.s);
    const tpl = await detail(fire.id);
    expect(tpl).toMatchObject({
      name: 'Fire safety walk',
      icon: 'fire',
      type: 'fire',
      scoring: true,
      sections_count: 1,
      questions_count: 4,
      max_score: 25,
    });
    const [placed, why, exits, notes] = tpl.sections[0]!.questions;
    expect(placed).toMatchObject({ position: 1, type: 'yes_no', expected: 'yes', allow_na: true, score: 10 });
    expect(why).toMatchObject({
      position: 2,
      type: 'choice',
      score: 5,
      add_options: true,
      condition: { question_id: placed!.id, option_key: 'no' },
    });
    expect(why!.options.map((o) => [o.label, o.score, o.failure])).toEqual([
      ['Missing', 0, true],
      ['Being serviced', 5, false],
    ]);
    expect(exits).toMatchObject({ critical: true });
    expect(notes).toMatchObject({ type: 'text', required: false, score: 0 });

    // A second section in front, then moved to the end; the list of sections answers in order.
    const added = await ok<{ section: { id: string } }>(
      await call(t, w.people.manager.s, 'POST', `/api/audits/${fire.id}/form_types`, { name: 'Housekeeping', position: 1 }),
      201,
    );
    expect((await detail(fire.id)).sections.map((s) => s.name)).toEqual(['Housekeeping', 'Fire']);
    const moved = await ok<{ sections: Array<{ name: string; position: number }> }>(
      await call(t, w.people.manager.s, 'PATCH', `/api/audits/${fire.id}/form_types/${added.section.id}`, {
        position: 2,
        name: 'Housekeeping and storage',
      }),
    );
    expect(moved.sections.map((s) => [s.name, s.position])).toEqual([
      ['Fire', 1],
      ['Housekeeping and storage', 2],
    ]);
    // A question in the later section may depend on one of the earlier.
    const saved = await ok<{ section: { questions: Array<{ condition: unknown; row_headers: string[]; notify: unknown }> } }>(
      await call(t, w.people.manager.s, 'PATCH', `/api/audits/${fire.id}/sections/${added.section.id}`, {
        name: 'Housekeeping and storage',
        questions: [
          question('Racks labelled?', { row_headers: ['Aisle 1', 'Aisle 2'], condition: { question: placed!.id, option: 'yes' } }),
          question('Spill kit present?', { notify: { when: 'failure', roles: ['head_of_safety'] } }),
        ],
      }),
    );
    expect(saved.section.questions[0]).toMatchObject({
      row_headers: ['Aisle 1', 'Aisle 2'],
      condition: { question_id: placed!.id, option_key: 'yes' },
    });
    expect(saved.section.questions[1]!.notify).toEqual({ when: 'failure', option_keys: [], user_ids: [], roles: ['head_of_safety'] });
    // A parent another question depends on cannot go; nor can its section.
    const orphan = await call(t, w.people.manager.s, 'PATCH', `/api/audits/${fire.id}/sections/${fire.sectionId}`, {
      name: 'Fire',
      questions: [question('Exits clear?', { id: exits!.id })],
    });
    expect(orphan.statusCode).toBe(409);
    expect(orphan.json().errors).toEqual(['Another question depends on this one: change that question first.']);
    expect((await call(t, w.people.manager.s, 'DELETE', `/api/audits/${fire.id}/form_types/${fire.sectionId}`)).statusCode).toBe(409);
  });

  it('refuses questions that do not hold together, naming each field', async () => {
    const fire = await fireTemplate(t, w.people.manager.s, 'Refusals');
    const res = await call(t, w.people.manager.s, 'POST', `/api/audits/${fire.id}/sections`, {
      name: 'Broken',
      questions: [
        { type: 'choice', label: 'One option', options: [{ label: 'Only' }] },
        { type: 'text', label: 'Scored text', score: 5 },
        { type: 'yes_no', label: 'Child of a later one', condition: { question: 'later', option: 'yes' } },
        { type: 'yes_no', label: 'Later', key: 'later' },
        { type: 'yes_no', label: 'Bad option', condition: { question: fire.placed.id, option: 'perhaps' } },
        { type: 'date', label: 'Critical date', critical: true },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['questions.0.options', 'questions.1.score', 'questions.5.critical']);
    const conditions = await call(t, w.people.manager.s, 'POST', `/api/audits/${fire.id}/sections`, {
      name: 'Conditions',
      questions: [
        { type: 'yes_no', label: 'Child of a later one', condition: { question: 'later', option: 'yes' } },
        { type: 'yes_no', label: 'Later', key: 'later' },
        { type: 'yes_no', label: 'Bad option', condition: { question: fire.placed.id, option: 'perhaps' } },
      ],
    });
    expect(conditions.statusCode).toBe(400);
    expect(conditions.json().fields).toEqual({
      'questions.0.condition': 'The parent question must come earlier in the form.',
      'questions.2.condition': 'Choose one of the parent question’s options.',
    });
    expect((await detail(fire.id)).sections).toHaveLength(1);
  });

  it('clones a template with its conditions pointing at the copies', async () => {
    const fire = await fireTemplate(t, w.people.manager.s, 'To clone');
    const copy = (
      await ok<{ template: AuditTemplateDetail }>(await call(t, w.people.manager.s, 'POST', `/api/audits/${fire.id}/clone`, {}), 201)
    ).template;
    expect(copy.name).toBe('To clone (copy)');
    const [placed, why] = copy.sections[0]!.questions;
    expect(placed!.id).not.toBe(fire.placed.id);
    expect(why!.condition).toEqual({ question_id: placed!.id, option_key: 'no' });
  });

  it('deletes only a template nothing was made from; a template reader cannot change one', async () => {
    const used = await fireTemplate(t, w.people.manager.s, 'Used');
    await scheduleOnce(t, w.people.manager.s, w, used.id);
    const inUse = await call(t, w.people.manager.s, 'DELETE', `/api/audits/${used.id}`);
    expect(inUse.statusCode).toBe(409);
    const fresh = await fireTemplate(t, w.people.manager.s, 'Fresh');
    expect((await call(t, w.people.reader.s, 'GET', `/api/audits/${fresh.id}`)).statusCode).toBe(403);
    expect((await call(t, w.people.auditor.s, 'DELETE', `/api/audits/${fresh.id}`)).statusCode).toBe(403);
    expect((await call(t, w.people.manager.s, 'DELETE', `/api/audits/${fresh.id}`)).statusCode).toBe(200);
    expect((await call(t, w.people.manager.s, 'GET', `/api/audits/${fresh.id}`)).statusCode).toBe(404);
  });

  it('a switched-off template takes no new schedule', async () => {
    const off = await fireTemplate(t, w.people.manager.s, 'Retired');
    await ok(await call(t, w.people.manager.s, 'PATCH', `/api/audits/${off.id}`, { active: false }));
    const res = await call(t, w.people.manager.s, 'POST', '/api/audit_schedules', {
      template_id: off.id,
      site_ids: [w.tokyo],
      auditor_id: w.people.auditor.id,
      frequency: 'once',
      start_date: '2999-01-01',
    });
    expect(res.json().fields).toEqual({ template_id: 'Choose an active template.' });
  });
});

describe('the free account’s template limit', () => {
  it('refuses a sixth template (and a clone) with the spec’s message', async () => {
    const other = await auditWorld(t, 'audittplfree');
    await makeFreeAccount(t, other.org.id);
    let last = '';
    for (let n = 0; n < 5; n += 1) last = (await fireTemplate(t, other.people.manager.s, `Form ${n}`)).id;
    const list = await ok<{ limit: number | null }>(await call(t, other.people.manager.s, 'GET', '/api/audits'));
    expect(list.limit).toBe(5);
    const sixth = await call(t, other.people.manager.s, 'POST', '/api/audits', { name: 'Sixth', icon: 'leaf', type: 'environment' });
    expect(sixth.json()).toMatchObject({
      code: 'plan_limit_reached',
      errors: ['You have no permission to add more audit templates: the free account keeps at most 5. Please upgrade.'],
    });
    expect((await call(t, other.people.manager.s, 'POST', `/api/audits/${last}/clone`, {})).statusCode).toBe(403);
  }, 120_000);
});
