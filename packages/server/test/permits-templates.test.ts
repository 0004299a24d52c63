import type { PermitSection } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, multipart, type Session, type TestApp } from './helpers.js';
import { act, createPermit, permitWorld, PNG, requestBody, type PermitWorld } from './permits-support.js';

/**
 * Templates (spec 001 §3): the four default sections, sections and questions added, reordered, edited
 * and removed, every question type with its limits, conditional questions ("a hot-work template with a
 * conditional checklist"), reference images, the enable switch, the prefix, and who may do it.
 */
let t: TestApp;
let w: PermitWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await permitWorld(t, 'ptwtpl');
});
afterAll(() => t?.close());

const admin = () => w.people.admin.s;
const sectionsOf = async (id: string) => (await call(t, admin(), 'GET', `/api/permits/${id}/sections`)).json().sections as PermitSection[];

describe('a new template', () => {
  it('starts with the four default sections, the location and time questions bound to the permit’s fields', async () => {
    const sections = await sectionsOf(w.lifting);
    expect(sections.map((s) => [s.kind, s.name, s.fixed])).toEqual([
      ['location', 'Location of Work', true],
      ['duration', 'Duration of Work', true],
      ['night_work', 'Night Work Checklist', false],
      ['closure', 'Closure Checklist', true],
    ]);
    expect(sections[0]!.questions.map((q) => [q.label, q.type, q.binding])).toEqual([
      ['Site Name', 'site', 'site'],
      ['Division Name', 'division', 'division'],
      ['Department Name', 'department', 'department'],
      ['Unit Name', 'unit', 'unit'],
    ]);
    expect(sections[1]!.questions.map((q) => q.binding)).toEqual(['start_date', 'start_time', 'end_date', 'end_time']);
    const night = sections[2]!.questions;
    expect(night.slice(1).every((q) => q.condition?.question_id === night[0]!.id && q.condition.answer === 'Yes')).toBe(true);
    const tpl = (await call(t, admin(), 'GET', `/api/permits/${w.lifting}`)).json().template;
    expect(tpl).toMatchObject({ prefix: 'LF', default_hours: 8, extension_hours: 4, enabled: true });
    expect(tpl.extension_declaration).toMatch(/^I declare/);
  });

  it('in the creator’s language, with its prefix in capitals and one template’s alone', async () => {
    const es = await call(
      t,
      admin(),
      'POST',
      '/api/permits',
      { name: 'Altura', description: 'Trabajo en altura', prefix: 'wh' },
      { 'accept-language': 'es' },
    );
    expect(es.statusCode, es.body).toBe(201);
    expect(es.json().template.prefix).toBe('WH');
    expect(es.json().template.sections.map((s: PermitSection) => s.name)[0]).toBe('Lugar del trabajo');
    const taken = await call(t, admin(), 'POST', '/api/permits', { name: 'Other', description: 'x', prefix: 'Hw' });
    expect(taken.json().fields.prefix).toBe('Another template uses this prefix.');
    const bad = await call(t, admin(), 'POST', '/api/permits', { name: 'Other', description: 'x', prefix: '9X', default_hours: 0 });
    expect(Object.keys(bad.json().fields).sort()).toEqual(['default_hours', 'prefix']);
  });
});

describe('sections and questions', () => {
  it('builds a hot-work checklist whose fire-watch question shows only when a fire watch is needed', async () => {
    const res = await call(t, admin(), 'POST', `/api/permits/${w.hotWork}/sections`, {
      name: 'Hot work checklist',
      position: 3,
      questions: [
        { key: 'fw', type: 'radio_button', label: 'Is a fire watch needed?', required: true, options: ['Yes', 'No'] },
        {
          type: 'text_field',
          label: 'Name of the fire watch',
          required: true,
          max_length: 60,
          condition: { question: 'fw', answer: 'Yes' },
        },
        { type: 'attachment', label: 'Photo of the extinguisher', attachment: { kinds: ['image'], max_files: 1, max_file_kb: 500 } },
        { type: 'equipment_master', label: 'Equipment used' },
        { type: 'hidden_field', label: 'Standard', hidden_value: 'NFPA 51B' },
        { type: 'date_only', label: 'Last gas test' },
        { type: 'time', label: 'Gas test time' },
        { type: 'text_area', label: 'Precautions' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const section = res.json().section as PermitSection;
    const [fw, name] = section.questions;
    expect(name!.condition).toEqual({ question_id: fw!.id, answer: 'Yes' });
    expect((await sectionsOf(w.hotWork)).map((s) => s.kind)).toEqual(['location', 'duration', 'custom', 'night_work', 'closure']);

    // The request: a fire watch needed and no name is refused; none needed, the name is not asked.
    const body = await requestBody(t, w, w.hotWork);
    const needed = await call(t, w.people.requester.s, 'POST', '/api/permit_requests', {
      ...body,
      answers: { ...body.answers, [fw!.id]: 'Yes' },
      submit: true,
    });
    expect(needed.statusCode).toBe(400);
    expect(needed.json().fields[`answers.${name!.id}`]).toBe('This field is required.');
    const tooLong = await call(t, w.people.requester.s, 'POST', '/api/permit_requests', {
      ...body,
      answers: { ...body.answers, [fw!.id]: 'Yes', [name!.id]: 'x'.repeat(61) },
    });
    expect(tooLong.json().fields[`answers.${name!.id}`]).toBeDefined();
    const none = await createPermit(t, w.people.requester.s, {
      ...body,
      answers: { ...body.answers, [fw!.id]: 'No', [name!.id]: 'Dropped' },
      submit: true,
    });
    expect(none.status).toBe('requested');
    expect(none.answers[name!.id]).toBeUndefined();
    expect(none.answers[section.questions[4]!.id]).toEqual({ value: 'NFPA 51B', items: [] });
    // The permit keeps its form: a later edit of the template changes nothing of it.
    await call(t, admin(), 'PATCH', `/api/permits/${w.hotWork}/sections/${section.id}`, {
      name: 'Renamed',
      questions: section.questions.map((q) => ({
        id: q.id,
        type: q.type,
        label: q.label,
        options: q.options,
        attachment: q.attachment,
        hidden_value: q.hidden_value,
      })),
    });
    const again = (await call(t, w.people.requester.s, 'GET', `/api/permit_requests/${none.id}`)).json().permit;
    expect(again.sections.map((s: PermitSection) => s.name)).toContain('Hot work checklist');
  });

  it('refuses a question that does not fit its type or a condition that points nowhere, writing nothing', async () => {
    const before = await sectionsOf(w.lifting);
    const res = await call(t, admin(), 'POST', `/api/permits/${w.lifting}/sections`, {
      name: 'Broken',
      questions: [
        { type: 'radio_button', label: 'One choice', options: ['Only'] },
        { type: 'text_field', label: 'Shown after a later question', condition: { question: 'later', answer: 'Yes' } },
        { key: 'later', type: 'radio_button', label: 'Later', options: ['Yes', 'No'] },
        { type: 'text_field', label: 'Wrong answer', condition: { question: 'later', answer: 'Maybe' } },
        { type: 'attachment', label: 'No rule' },
        { type: 'site', label: 'A second site' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual([
      'questions.0.options',
      'questions.1.condition',
      'questions.3.condition',
      'questions.4.attachment',
      'questions.5.type',
    ]);
    expect(await sectionsOf(w.lifting)).toEqual(before);
  });

  it('keeps the bound questions of a fixed section with their type, and fixed sections themselves', async () => {
    const [location] = await sectionsOf(w.lifting);
    const dropped = await call(t, admin(), 'PATCH', `/api/permits/${w.lifting}/sections/${location!.id}`, {
      name: location!.name,
      questions: location!.questions.slice(1).map((q) => ({ id: q.id, type: q.type, label: q.label })),
    });
    expect(dropped.json().fields.questions).toBe('The questions of a fixed section cannot be removed.');
    const retyped = await call(t, admin(), 'PATCH', `/api/permits/${w.lifting}/sections/${location!.id}`, {
      name: 'Where',
      questions: location!.questions.map((q, i) => ({ id: q.id, type: i === 0 ? 'text_field' : q.type, label: q.label })),
    });
    expect(retyped.json().fields['questions.0.type']).toBeDefined();
    const renamed = await call(t, admin(), 'PATCH', `/api/permits/${w.lifting}/sections/${location!.id}`, {
      name: 'Where',
      questions: [
        ...location!.questions.map((q) => ({ id: q.id, type: q.type, label: `${q.label}!` })),
        { type: 'text_field', label: 'Exact spot' },
      ],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().section.questions.map((q: { label: string }) => q.label)).toEqual([
      'Site Name!',
      'Division Name!',
      'Department Name!',
      'Unit Name!',
      'Exact spot',
    ]);
    expect((await call(t, admin(), 'DELETE', `/api/permits/${w.lifting}/form_types/${location!.id}`)).statusCode).toBe(409);
    const closure = (await sectionsOf(w.lifting)).find((s) => s.kind === 'closure')!;
    expect((await call(t, admin(), 'PATCH', `/api/permits/${w.lifting}/form_types/${closure.id}`, { active: false })).statusCode).toBe(409);
  });

  it('adds, moves, renames and removes sections; a question shown on a removed question is shown always', async () => {
    const added = await call(t, admin(), 'POST', `/api/permits/${w.confined}/form_types`, { name: 'Atmosphere' });
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json().section.id as string;
    const moved = await call(t, admin(), 'PATCH', `/api/permits/${w.confined}/form_types/${id}`, { position: 1, name: 'Atmosphere test' });
    expect(moved.json().sections.map((s: PermitSection) => s.name)[0]).toBe('Atmosphere test');
    const night = (await sectionsOf(w.confined)).find((s) => s.kind === 'night_work')!;
    // Removing the night-work radio from its section: its conditional questions lose their condition.
    const saved = await call(t, admin(), 'PATCH', `/api/permits/${w.confined}/sections/${night.id}`, {
      name: night.name,
      questions: night.questions
        .slice(1)
        .map((q) => ({ id: q.id, type: q.type, label: q.label, options: q.options, required: q.required })),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().section.questions.every((q: { condition: unknown }) => q.condition === null)).toBe(true);
    const removed = await call(t, admin(), 'DELETE', `/api/permits/${w.confined}/sections/${night.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().sections.map((s: PermitSection) => s.kind)).toEqual(['custom', 'location', 'duration', 'closure']);
    expect(removed.json().sections.map((s: PermitSection) => s.position)).toEqual([1, 2, 3, 4]);
  });

  it('a reference image per question: an image, replacing the last one; any other file is refused', async () => {
    const [question] = (await sectionsOf(w.lifting)).find((s) => s.kind === 'closure')!.questions;
    const url = `/api/section_question_reference_image/${question!.id}`;
    const patch = (s: Session, name: string, bytes: Buffer, type: string) => {
      const m = multipart(name, bytes, type);
      return t.app.inject({
        method: 'PATCH',
        url,
        payload: m.payload,
        remoteAddress: '10.9.9.9',
        headers: { ...m.headers, 'x-tenant': s.tenant, authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf },
      });
    };
    const png = await patch(admin(), 'harness.png', PNG, 'image/png');
    expect(png.statusCode, png.body).toBe(200);
    expect(png.json().question.reference_image.file_name).toBe('harness.png');
    const pdf = await patch(
      admin(),
      'rules.pdf',
      Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
      'application/pdf',
    );
    expect(pdf.statusCode).toBe(415);
    const replaced = await patch(admin(), 'harness-2.png', PNG, 'image/png');
    expect(replaced.json().question.reference_image.file_name).toBe('harness-2.png');
    expect((await call(t, admin(), 'GET', `/api/files/${png.json().question.reference_image.id}`)).statusCode).toBe(404);
    const image = replaced.json().question.reference_image.id as string;
    expect((await call(t, w.people.requester.s, 'GET', `/api/files/${image}`)).statusCode).toBe(200);
    expect((await call(t, w.people.outsider.s, 'GET', `/api/files/${image}`)).statusCode).not.toBe(200);
    expect((await patch(w.people.reader.s, 'x.png', PNG, 'image/png')).statusCode).toBe(403);
  });
});

describe('the enable switch, deleting, and who may do it', () => {
  it('a switched-off template takes no new request, and is left out of the request flow’s choice', async () => {
    const made = await call(t, admin(), 'POST', '/api/permits', { name: 'Excavation', description: 'Digging', prefix: 'EX' });
    const id = made.json().template.id as string;
    await call(t, admin(), 'PATCH', `/api/permits/${id}`, { enabled: false });
    const refused = await call(t, w.people.requester.s, 'POST', '/api/permit_requests', { template_id: id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0]).toBe('This permit type is switched off.');
    const enabled = await call(t, admin(), 'GET', '/api/permits?enabled=true');
    expect(enabled.json().templates.map((x: { id: string }) => x.id)).not.toContain(id);
    expect((await call(t, admin(), 'DELETE', `/api/permits/${id}`)).statusCode).toBe(200);
  });

  it('a template with permits cannot be deleted', async () => {
    await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    const res = await call(t, admin(), 'DELETE', `/api/permits/${w.lifting}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0]).toBe('Permits were raised from this template: switch it off instead.');
  });

  it('Permit Form Setting rights manage templates; readers of permits open the request form only', async () => {
    expect(
      (await call(t, w.people.setter.s, 'POST', '/api/permits', { name: 'Roofing', description: 'Roof work', prefix: 'RF' })).statusCode,
    ).toBe(201);
    expect((await call(t, w.people.reader.s, 'GET', '/api/permits')).statusCode).toBe(403);
    expect((await call(t, w.people.requester.s, 'GET', `/api/permit_form_questions/${w.hotWork}`)).statusCode).toBe(200);
    expect((await call(t, w.people.setter.s, 'GET', `/api/permit_form_questions/${w.hotWork}`)).statusCode).toBe(403);
  });

  it('a clone keeps working after its source’s template is switched back on', async () => {
    const p = await createPermit(t, w.people.requester.s, { ...(await requestBody(t, w, w.lifting)), submit: true });
    await act(t, w.people.issuer.s, p.id, 'approve');
    await call(t, admin(), 'PATCH', `/api/permits/${w.lifting}`, { enabled: false });
    expect((await call(t, w.people.requester.s, 'POST', `/api/permit_requests/${p.id}/clone`)).statusCode).toBe(409);
    await call(t, admin(), 'PATCH', `/api/permits/${w.lifting}`, { enabled: true });
    expect((await call(t, w.people.requester.s, 'POST', `/api/permit_requests/${p.id}/clone`)).statusCode).toBe(201);
  });
});
