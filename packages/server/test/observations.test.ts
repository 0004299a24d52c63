import { translate, type Language, type Observation, type ObservationListResponse, type ObservationStatusCounts } from '@bulwark/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sweepActions } from '../src/modules/actions/sweep.js';
import { actions } from '../src/modules/actions/tables.js';
import { inTenant } from '../src/platform/db/db.js';
import { mailOutbox } from '../src/platform/db/schema.js';
import { readWorkbookRows } from '../src/platform/export/excel.js';
import { call, createOrg, createTestApp, signIn, upload, type Session, type TestApp } from './helpers.js';
import { footprint, PNG, pdfText, setUpOrganisation, siteDate, siteTime, type Fixture } from './observations-support.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let fa: Fixture;
let fb: Fixture;
const s = {} as Record<'adminA' | 'managerA' | 'supervisorA' | 'reporterA' | 'readerA' | 'nobodyA' | 'adminB', Session>;
const NIL = '00000000-0000-4000-8000-000000000000';

const tr = (lang: Language, key: string) => translate(lang, key);

function body(over: Record<string, unknown> = {}) {
  return {
    type: 'unsafe_act',
    category_id: fa.ppe,
    sub_category_id: fa.gloves,
    description: 'Operator handling sheet metal without gloves',
    site_id: fa.tokyo,
    site_node_id: fa.tokyoDivision,
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

function action(over: Record<string, unknown> = {}) {
  return {
    description: 'Provide cut-resistant gloves at the press',
    control_type: 'ppe',
    responsible_id: fa.supervisor,
    due_date: siteDate('Asia/Tokyo', 5),
    ...over,
  };
}

async function report(session: Session, over: Record<string, unknown> = {}) {
  const res = await call(t, session, 'POST', '/api/observations', body(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; serial: number; serial_label: string };
}

async function detail(session: Session, id: string): Promise<Observation> {
  const res = await call(t, session, 'GET', `/api/observations/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { observation: Observation }).observation;
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'obsa');
  b = await createOrg(t, 'obsb');
  fa = await setUpOrganisation(t, a.id, 'obsa');
  fb = await setUpOrganisation(t, b.id, 'obsb');
  s.adminA = await signIn(t, 'obsa', a.adminEmail);
  s.managerA = await signIn(t, 'obsa', 'manager@obsa.test');
  s.supervisorA = await signIn(t, 'obsa', 'supervisor@obsa.test');
  s.reporterA = await signIn(t, 'obsa', 'reporter@obsa.test');
  s.readerA = await signIn(t, 'obsa', a.userEmail);
  s.nobodyA = await signIn(t, 'obsa', 'nobody@obsa.test');
  s.adminB = await signIn(t, 'obsb', b.adminEmail);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('POST /api/observations', () => {
  it('records every field, opens the observation and numbers it per organisation', async () => {
    const first = await report(s.reporterA);
    const second = await report(s.reporterA, {
      type: 'unsafe_condition',
      category_id: fa.housekeeping,
      sub_category_id: null,
      site_id: fa.la,
      site_node_id: fa.laDivision,
      observed_at: siteTime('America/Los_Angeles', -60),
    });
    expect(second.serial).toBe(first.serial + 1);
    expect(second.serial_label).toBe(`OBS-${String(second.serial).padStart(6, '0')}`);
    const otherOrg = await report(s.adminB, {
      site_id: fb.tokyo,
      site_node_id: fb.tokyoDivision,
      category_id: fb.ppe,
      sub_category_id: fb.gloves,
    });
    expect(otherOrg.serial).toBe(1);

    const o = await detail(s.reporterA, first.id);
    expect(o).toMatchObject({
      type: 'unsafe_act',
      category: { id: fa.ppe, name: 'PPE not used' },
      sub_category: { id: fa.gloves, name: 'Gloves' },
      site: { id: fa.tokyo, name: 'Tokyo Works', time_zone: 'Asia/Tokyo' },
      site_node: { id: fa.tokyoDivision, level: 'division', full_name: 'Tokyo Works / Assembly' },
      risk_level: 'high',
      action_required: false,
      status: 'open',
      anonymous: false,
      source: 'staff',
      reporter: { id: fa.reporter, full_name: 'Rita Reporter', guest: false },
      actions: [],
      attachments: [],
    });
    // The local time is the site's; the instant is that wall time in Tokyo (UTC+9).
    expect(new Date(o.observed_at_utc).getTime()).toBe(Date.parse(`${o.observed_at}:00+09:00`));
    expect(o.history.map((h) => h.action)).toEqual(['created']);
    expect(o.permissions).toMatchObject({ update: false, close: false, delete: false });
  });

  it('hides an anonymous reporter from everyone, history included', async () => {
    const { id } = await report(s.reporterA, { anonymous: true });
    const o = await detail(s.managerA, id);
    expect(o.reporter).toBeNull();
    expect(o.history[0]!.actor).toBeNull();
    const list = (await call(t, s.managerA, 'GET', `/api/v2/observations?search=${o.serial_label}`)).json() as ObservationListResponse;
    expect(list.observations[0]!.reporter_name).toBeNull();
    // Searching the reporter's name does not find the anonymous report.
    const byName = (await call(t, s.managerA, 'GET', '/api/v2/observations?search=Rita&per_page=200')).json() as ObservationListResponse;
    expect(byName.observations.map((x) => x.id)).not.toContain(id);
  });

  it('keeps an anonymous reporter off the actions the report raises, and out of their mail', async () => {
    const { id } = await report(s.managerA, {
      anonymous: true,
      action_required: true,
      actions: [action({ description: 'Anonymous report action' })],
    });
    const o = await detail(s.managerA, id);
    const res = await call(t, s.managerA, 'GET', `/api/actions/${o.actions[0]!.id}?actionable_type=observation`);
    expect(res.statusCode, res.body).toBe(200);
    const got = res.json() as { created_by: unknown; history: Array<{ actor: unknown }> };
    expect(got.created_by).toBeNull();
    expect(got.history.every((h) => h.actor === null)).toBe(true);
    const [mail] = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'supervisor@obsa.test')).orderBy(desc(mailOutbox.createdAt)).limit(1),
    );
    expect(mail!.body).toContain(tr('en', 'actions.anonymousReporter'));
    expect(mail!.body).not.toContain('Priya');
  });

  it('creates the actions in the same transaction and tells the responsible person', async () => {
    const before = await footprint(t, a.id);
    const { id } = await report(s.managerA, {
      action_required: true,
      actions: [action(), action({ description: 'Add gloves to the line checklist', control_type: 'administrative' })],
    });
    const o = await detail(s.managerA, id);
    expect(o.actions.map((x) => [x.description, x.status, x.source_type, x.source_id])).toEqual([
      ['Provide cut-resistant gloves at the press', 'open', 'observation', id],
      ['Add gloves to the line checklist', 'open', 'observation', id],
    ]);
    expect(await footprint(t, a.id)).toMatchObject({ observations: before.observations + 1, actions: before.actions + 2 });
  });

  describe('refuses bad input with a translated message per field and writes nothing', () => {
    const cases: Array<[string, () => Record<string, unknown>, string, string]> = [
      ['type missing', () => ({ type: undefined }), 'type', 'observations.validation.type'],
      ['type unknown', () => ({ type: 'explosion' }), 'type', 'validation.invalid'],
      ['description empty', () => ({ description: '  ' }), 'description', 'validation.required'],
      ['description too long', () => ({ description: 'x'.repeat(4001) }), 'description', 'validation.tooLong'],
      ['comment empty', () => ({ comment: '' }), 'comment', 'validation.required'],
      ['site missing', () => ({ site_id: undefined }), 'site_id', 'observations.validation.site'],
      ['site of another organisation', () => ({ site_id: fb.tokyo, site_node_id: null }), 'site_id', 'observations.validation.siteUnknown'],
      ['inactive site', () => ({ site_id: fa.inactive, site_node_id: null }), 'site_id', 'observations.validation.siteUnknown'],
      ['area of another site', () => ({ site_node_id: fa.laDivision }), 'site_node_id', 'observations.validation.nodeUnknown'],
      ['date not a date', () => ({ observed_at: 'yesterday' }), 'observed_at', 'observations.validation.observedAt'],
      ['date that does not exist', () => ({ observed_at: '2025-02-30T10:00' }), 'observed_at', 'observations.validation.observedAt'],
      ['future time at the site', () => ({ observed_at: siteTime('Asia/Tokyo', 90) }), 'observed_at', 'observations.validation.futureTime'],
      ['risk level missing', () => ({ risk_level: '' }), 'risk_level', 'observations.validation.riskLevel'],
      ['risk level unknown', () => ({ risk_level: 'extreme' }), 'risk_level', 'validation.invalid'],
      ['action required without actions', () => ({ action_required: true }), 'actions', 'observations.validation.actionsRequired'],
      ['actions without action required', () => ({ actions: [action()] }), 'actions', 'observations.validation.actionsNotRequired'],
      ['action required not a boolean', () => ({ action_required: 'yes' }), 'action_required', 'validation.invalid'],
      [
        'category of another type',
        () => ({ category_id: fa.housekeeping, sub_category_id: null }),
        'category_id',
        'observations.validation.categoryUnknown',
      ],
      [
        'inactive category',
        () => ({ category_id: fa.retired, sub_category_id: null }),
        'category_id',
        'observations.validation.categoryUnknown',
      ],
      [
        'category of another organisation',
        () => ({ category_id: fb.ppe, sub_category_id: null }),
        'category_id',
        'observations.validation.categoryUnknown',
      ],
      [
        'sub-category without category',
        () => ({ category_id: null }),
        'sub_category_id',
        'observations.validation.subCategoryWithoutCategory',
      ],
      [
        'sub-category of another category',
        () => ({ sub_category_id: fb.gloves }),
        'sub_category_id',
        'observations.validation.subCategoryUnknown',
      ],
      ['unknown attachment', () => ({ attachment_ids: [NIL] }), 'attachment_ids', 'observations.validation.attachmentUnknown'],
      [
        'too many attachments',
        () => ({ attachment_ids: Array.from({ length: 11 }, () => NIL) }),
        'attachment_ids',
        'observations.validation.tooManyAttachments',
      ],
      ['anonymous not a boolean', () => ({ anonymous: 'no' }), 'anonymous', 'validation.invalid'],
      [
        'action without description',
        () => ({ action_required: true, actions: [action({ description: '' })] }),
        'actions.0.description',
        'validation.required',
      ],
      [
        'action with an unknown control',
        () => ({ action_required: true, actions: [action({ control_type: 'luck' })] }),
        'actions.0.control_type',
        'actions.validation.controlType',
      ],
      [
        'action for a person of another organisation',
        () => ({ action_required: true, actions: [action({ responsible_id: fb.supervisor })] }),
        'actions.0.responsible_id',
        'actions.validation.responsibleUnknown',
      ],
      [
        'action due yesterday',
        () => ({ action_required: true, actions: [action({ due_date: siteDate('Asia/Tokyo', -1) })] }),
        'actions.0.due_date',
        'actions.validation.dueDatePast',
      ],
    ];
    it.each(cases)('%s', async (_name, over, field, key) => {
      const before = await footprint(t, a.id);
      const res = await call(t, s.managerA, 'POST', '/api/observations', body(over()), { 'accept-language': 'es' });
      expect(res.statusCode, res.body).toBe(400);
      const json = res.json() as { code: string; fields: Record<string, string> };
      expect(json.code).toBe('validation_failed');
      expect(json.fields[field]).toBe(tr('es', key));
      expect(await footprint(t, a.id)).toEqual(before);
    });
  });

  it('checks "no future time" in the site\'s own zone, ahead of UTC and behind it', async () => {
    // Tokyo is 16 or 17 hours ahead of Los Angeles: a Tokyo time of an hour ago is the future in LA.
    const tokyoAnHourAgo = siteTime('Asia/Tokyo', -60);
    await report(s.managerA, { observed_at: tokyoAnHourAgo });
    const inLa = await call(
      t,
      s.managerA,
      'POST',
      '/api/observations',
      body({ site_id: fa.la, site_node_id: null, observed_at: tokyoAnHourAgo }),
    );
    expect(inLa.statusCode).toBe(400);
    expect(inLa.json().fields.observed_at).toBe(tr('en', 'observations.validation.futureTime'));
    // Los Angeles time of an hour ago is accepted there, and in Tokyo (it is long past there).
    const laAnHourAgo = siteTime('America/Los_Angeles', -60);
    await report(s.managerA, { site_id: fa.la, site_node_id: null, observed_at: laAnHourAgo });
    await report(s.managerA, { observed_at: laAnHourAgo });
    const laSoon = await call(
      t,
      s.managerA,
      'POST',
      '/api/observations',
      body({ site_id: fa.la, site_node_id: null, observed_at: siteTime('America/Los_Angeles', 5) }),
    );
    expect(laSoon.json().fields?.observed_at).toBe(tr('en', 'observations.validation.futureTime'));
  });

  it('needs Observation create, and Action create for actions', async () => {
    expect((await call(t, s.readerA, 'POST', '/api/observations', body())).statusCode).toBe(403);
    const res = await call(t, s.reporterA, 'POST', '/api/observations', body({ action_required: true, actions: [action()] }));
    expect(res.statusCode).toBe(403);
  });
});

describe('attachments', () => {
  it('uploads a photo checked by content, links it once, and counts it against the quota', async () => {
    const up = await upload(t, s.reporterA, '/api/observations/attachments', 'press.png', PNG, 'image/png');
    expect(up.statusCode, up.body).toBe(201);
    const file = up.json().file as { id: string; size_bytes: number };
    // Until a report links it, the upload is its uploader's alone.
    expect((await call(t, s.reporterA, 'GET', `/api/files/${file.id}`)).statusCode).toBe(200);
    expect((await call(t, s.readerA, 'GET', `/api/files/${file.id}`)).statusCode).toBe(404);
    const { id } = await report(s.reporterA, { attachment_ids: [file.id] });
    // Linked, it is for whoever reads observations, and still for nobody else.
    expect((await call(t, s.readerA, 'GET', `/api/files/${file.id}`)).statusCode).toBe(200);
    expect((await call(t, s.nobodyA, 'GET', `/api/files/${file.id}`)).statusCode).toBe(404);
    const o = await detail(s.reporterA, id);
    expect(o.attachments).toEqual([
      expect.objectContaining({ id: file.id, file_name: 'press.png', mime_type: 'image/png', size_bytes: PNG.length }),
    ]);
    // The same file cannot be linked twice, nor by another person.
    const again = await call(t, s.reporterA, 'POST', '/api/observations', body({ attachment_ids: [file.id] }));
    expect(again.json().fields.attachment_ids).toBe(tr('en', 'observations.validation.attachmentUnknown'));
    const mine = (await upload(t, s.reporterA, '/api/observations/attachments', 'b.png', PNG, 'image/png')).json().file.id as string;
    const theirs = await call(t, s.managerA, 'POST', '/api/observations', body({ attachment_ids: [mine] }));
    expect(theirs.json().fields.attachment_ids).toBe(tr('en', 'observations.validation.attachmentUnknown'));
  });

  it('refuses a file whose content is not an allowed type, whatever its name says', async () => {
    const res = await upload(
      t,
      s.reporterA,
      '/api/observations/attachments',
      'photo.png',
      Buffer.from('#!/bin/sh\necho hi\n'),
      'image/png',
    );
    expect(res.statusCode).toBe(415);
    expect((await upload(t, s.readerA, '/api/observations/attachments', 'a.png', PNG, 'image/png')).statusCode).toBe(403);
  });

  it("removes an unused upload of one's own only", async () => {
    const id = (await upload(t, s.reporterA, '/api/observations/attachments', 'c.png', PNG, 'image/png')).json().file.id as string;
    expect((await call(t, s.managerA, 'DELETE', `/api/observations/attachments/${id}`)).statusCode).toBe(404);
    expect((await call(t, s.reporterA, 'DELETE', `/api/observations/attachments/${id}`)).statusCode).toBe(200);
    expect((await call(t, s.reporterA, 'DELETE', `/api/observations/attachments/${id}`)).statusCode).toBe(404);
  });
});

describe('status follows the actions; closing', () => {
  it('open -> in progress -> completed -> closed by a person with the close right', async () => {
    const { id } = await report(s.managerA, { action_required: true, actions: [action(), action({ description: 'Second action' })] });
    let o = await detail(s.managerA, id);
    expect(o.status).toBe('open');
    const [first, second] = o.actions;
    const move = async (who: Session, actionId: string, payload: Record<string, unknown>) => {
      const res = await call(t, who, 'PATCH', `/api/actions/${actionId}`, payload);
      expect(res.statusCode, res.body).toBe(200);
    };
    // Screens showing the observation hear that it changed, though only its action was written.
    const pushed = vi.spyOn(t.deps.push, 'toOrganization');
    await move(s.supervisorA, first!.id, { status: 'in_progress' });
    expect(pushed).toHaveBeenCalledWith(a.id, { channel: 'observations', change: 'updated', id });
    pushed.mockRestore();
    expect((await detail(s.managerA, id)).status).toBe('in_progress');
    await move(s.supervisorA, first!.id, { status: 'completed', remarks: 'Gloves issued' });
    expect((await detail(s.managerA, id)).status).toBe('in_progress');

    // Closing is refused while an action is open, and by someone without the close right.
    const early = await call(t, s.managerA, 'PATCH', `/api/observations/${id}`, { close: { remarks: 'Done' } });
    expect(early.statusCode).toBe(409);
    expect(early.json().errors[0]).toBe(tr('en', 'observations.validation.actionsOpen'));
    o = await detail(s.managerA, id);
    expect(o.permissions).toMatchObject({ close: false, close_blocked_by: 'observations.validation.actionsOpen' });

    await move(s.supervisorA, second!.id, { status: 'completed', remarks: 'Checklist updated' });
    expect((await detail(s.managerA, id)).status).toBe('completed');
    const noRight = await call(
      t,
      s.supervisorA,
      'PATCH',
      `/api/observations/${id}`,
      { close: { remarks: 'Done' } },
      { 'accept-language': 'tr' },
    );
    expect(noRight.statusCode).toBe(403);
    expect(noRight.json().errors[0]).toBe(tr('tr', 'observations.validation.closeRight'));
    const noRemarks = await call(t, s.managerA, 'PATCH', `/api/observations/${id}`, { close: { remarks: '' } });
    expect(noRemarks.statusCode).toBe(400);
    expect(noRemarks.json().fields['close.remarks']).toBe(tr('en', 'validation.required'));

    const closed = await call(t, s.managerA, 'PATCH', `/api/observations/${id}`, {
      close: { remarks: 'Gloves issued and checklist updated' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    o = (closed.json() as { observation: Observation }).observation;
    expect(o).toMatchObject({ status: 'closed', closing_remarks: 'Gloves issued and checklist updated', closed_by: { id: fa.manager } });
    expect(o.history.map((h) => h.action)).toEqual(expect.arrayContaining(['created', 'status_changed', 'closed']));
    // Closed is final.
    const edit = await call(t, s.managerA, 'PATCH', `/api/observations/${id}`, { description: 'Changed later' });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().errors[0]).toBe(tr('en', 'observations.validation.closedReadOnly'));
  });

  it('turns overdue when the sweep finds an action past due at the site', async () => {
    const { id } = await report(s.managerA, { action_required: true, actions: [action()] });
    const o = await detail(s.managerA, id);
    await inTenant(t.deps.db.app, a.id, (tx) =>
      tx
        .update(actions)
        .set({ dueDate: siteDate('Asia/Tokyo', -2) })
        .where(eq(actions.id, o.actions[0]!.id)),
    );
    await sweepActions(t.deps);
    expect((await detail(s.managerA, id)).status).toBe('overdue');
  });

  it('without actions stays open until closed, and can be closed at once', async () => {
    const { id } = await report(s.managerA);
    expect((await detail(s.managerA, id)).status).toBe('open');
    const res = await call(t, s.managerA, 'PATCH', `/api/observations/${id}`, { close: { remarks: 'Spoken to; nothing else needed' } });
    expect(res.json().observation.status).toBe('closed');
  });
});

describe('PATCH /api/observations/{id}', () => {
  it('edits fields with a history of what changed, and adds actions', async () => {
    const { id } = await report(s.reporterA);
    const res = await call(t, s.supervisorA, 'PATCH', `/api/observations/${id}`, {
      description: 'Gloves missing at press 4',
      risk_level: 'medium',
    });
    expect(res.statusCode, res.body).toBe(200);
    let o = (res.json() as { observation: Observation }).observation;
    expect(o).toMatchObject({ description: 'Gloves missing at press 4', risk_level: 'medium' });
    const change = o.history.find((h) => h.action === 'updated');
    expect(change?.actor?.id).toBe(fa.supervisor);
    expect(change?.changes).toEqual(
      expect.arrayContaining([
        { field: 'description', from: 'Operator handling sheet metal without gloves', to: 'Gloves missing at press 4' },
        { field: 'risk_level', from: 'high', to: 'medium' },
      ]),
    );
    const add = await call(t, s.supervisorA, 'PATCH', `/api/observations/${id}`, { action_required: true, add_actions: [action()] });
    expect(add.statusCode, add.body).toBe(200);
    o = (add.json() as { observation: Observation }).observation;
    expect(o.actions).toHaveLength(1);
    expect(o.action_required).toBe(true);
  });

  it('refuses bad edits with field errors and writes nothing', async () => {
    const { id } = await report(s.reporterA);
    const before = await footprint(t, a.id);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ observed_at: siteTime('Asia/Tokyo', 120) }, 'observed_at', 'observations.validation.futureTime'],
      [{ site_id: fa.inactive }, 'site_id', 'observations.validation.siteUnknown'],
      [{ action_required: true }, 'add_actions', 'observations.validation.actionsRequired'],
      [
        { action_required: true, add_actions: [action({ due_date: '2020-01-01' })] },
        'add_actions.0.due_date',
        'actions.validation.dueDatePast',
      ],
      [{}, 'body', 'observations.validation.nothingToChange'],
    ];
    for (const [payload, field, key] of cases) {
      const res = await call(t, s.managerA, 'PATCH', `/api/observations/${id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(payload)).toBe(tr('en', key));
    }
    expect(await footprint(t, a.id)).toEqual(before);
    expect((await call(t, s.reporterA, 'PATCH', `/api/observations/${id}`, { description: 'mine' })).statusCode).toBe(403);
  });

  it('deletes an observation without actions (Observation delete), not one with actions', async () => {
    const plain = await report(s.reporterA);
    const withActions = await report(s.managerA, { action_required: true, actions: [action()] });
    expect((await call(t, s.supervisorA, 'DELETE', `/api/observations/${plain.id}`)).statusCode).toBe(403);
    const refused = await call(t, s.managerA, 'DELETE', `/api/observations/${withActions.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors[0]).toBe(tr('en', 'observations.validation.hasActions'));
    expect((await call(t, s.managerA, 'DELETE', `/api/observations/${plain.id}`)).statusCode).toBe(200);
    expect((await call(t, s.managerA, 'GET', `/api/observations/${plain.id}`)).statusCode).toBe(404);
  });
});

describe('lists, counts and export', () => {
  it('filters, searches, pages by 15 and counts the tabs from the same filters', async () => {
    for (let i = 0; i < 16; i += 1)
      await report(s.managerA, {
        site_id: fa.la,
        site_node_id: null,
        observed_at: siteTime('America/Los_Angeles', -120 - i),
        risk_level: 'low',
        description: `Batch item ${i}`,
      });
    const page = (
      await call(t, s.readerA, 'GET', `/api/v2/observations?site_id=${fa.la}&risk_level=low`)
    ).json() as ObservationListResponse;
    expect(page.pagination).toMatchObject({ page: 1, per_page: 15, total: 16, total_pages: 2 });
    expect(page.observations).toHaveLength(15);
    expect(page.observations.every((o) => o.site.id === fa.la && o.risk_level === 'low')).toBe(true);
    const second = (
      await call(t, s.readerA, 'GET', `/api/v2/observations?site_id=${fa.la}&risk_level=low&page=2`)
    ).json() as ObservationListResponse;
    expect(second.observations).toHaveLength(1);
    const found = (await call(t, s.readerA, 'GET', '/api/v2/observations?search=Batch%20item%2012')).json() as ObservationListResponse;
    expect(found.observations.map((o) => o.description)).toEqual(['Batch item 12']);
    const bySerial = (
      await call(t, s.readerA, 'GET', `/api/v2/observations?search=${found.observations[0]!.serial_label}`)
    ).json() as ObservationListResponse;
    expect(bySerial.observations.map((o) => o.id)).toContain(found.observations[0]!.id);

    const counts = (
      await call(t, s.readerA, 'GET', `/api/v2/observations/period_status_counts?site_id=${fa.la}&risk_level=low`)
    ).json() as ObservationStatusCounts;
    expect(counts.counts).toMatchObject({ all: 16, open: 16, closed: 0 });
    const today = siteDate('America/Los_Angeles', 0);
    const yesterday = siteDate('America/Los_Angeles', -1);
    const range = (
      await call(t, s.readerA, 'GET', `/api/v2/observations?site_id=${fa.la}&risk_level=low&from=${yesterday}&to=${today}&per_page=50`)
    ).json() as ObservationListResponse;
    expect(range.pagination.total).toBe(16);
    const none = (
      await call(t, s.readerA, 'GET', `/api/v2/observations?site_id=${fa.la}&from=2000-01-01&to=2000-01-31`)
    ).json() as ObservationListResponse;
    expect(none.pagination.total).toBe(0);
    const bad = await call(t, s.readerA, 'GET', '/api/v2/observations?from=2025-02-01&to=2025-01-01');
    expect(bad.json().fields.to).toBe(tr('en', 'observations.validation.dateRange'));
  });

  it('exports exactly the filtered rows with translated headers', async () => {
    const q = `site_id=${fa.la}&risk_level=low&status=open`;
    const list = (await call(t, s.readerA, 'GET', `/api/v2/observations?${q}&per_page=200`)).json() as ObservationListResponse;
    const res = await call(t, s.readerA, 'GET', `/api/v2/observations?${q}&export_to_excel=true`, undefined, { 'accept-language': 'es' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const sheet = await readWorkbookRows(res.rawPayload);
    expect(sheet.headers[0]).toBe(tr('es', 'observations.fields.serial'));
    const serialHeader = sheet.headers[0]!;
    expect(sheet.rows.map((r) => r.values[serialHeader]).sort()).toEqual(list.observations.map((o) => o.serial_label).sort());
    expect(sheet.rows[0]!.values[tr('es', 'observations.fields.riskLevel')]).toBe(tr('es', 'observations.riskLevels.low'));
  });

  it('gives the form what it needs', async () => {
    const res = await call(t, s.reporterA, 'GET', '/api/observations/obs_data');
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data.sites.map((x: { name: string }) => x.name)).toEqual(['Los Angeles Yard', 'Tokyo Works']);
    expect(data.sites[1].nodes).toEqual([{ id: fa.tokyoDivision, level: 'division', full_name: 'Tokyo Works / Assembly' }]);
    expect(data.risk_levels).toEqual(['low', 'medium', 'high', 'critical']);
    expect(data.users.map((u: { id: string }) => u.id)).toContain(fa.supervisor);
    expect(data.users.map((u: { id: string }) => u.id)).not.toContain(fb.supervisor);
    const types = (await call(t, s.reporterA, 'GET', '/api/observations/obs_hazard_types')).json();
    const act = types.types.find((x: { type: string }) => x.type === 'unsafe_act');
    expect(act.categories).toEqual([{ id: fa.ppe, name: 'PPE not used', sub_categories: [{ id: fa.gloves, name: 'Gloves' }] }]);
  });
});

describe('the PDF report', () => {
  it("renders every field in the requester's language, with the serial, actions and photos", async () => {
    const photo = (await upload(t, s.managerA, '/api/observations/attachments', 'şantiye.png', PNG, 'image/png')).json().file.id as string;
    const { id, serial_label } = await report(s.managerA, {
      attachment_ids: [photo],
      action_required: true,
      actions: [action({ description: 'Eldiven dağıtımı yapılacak' })],
    });
    const res = await call(t, s.managerA, 'GET', `/api/observations/${id}/report.pdf`, undefined, { 'accept-language': 'tr' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(serial_label);
    expect(text).toContain(tr('tr', 'observations.report.title'));
    expect(text).toContain(tr('tr', 'observations.riskLevels.high'));
    expect(text).toContain('Eldiven dağıtımı yapılacak');
    expect(text).toContain('şantiye.png');
    expect(text).toContain('Tokyo Works / Assembly');
  });

  it('sets Chinese labels and text in a font that has their glyphs', async () => {
    const { id, serial_label } = await report(s.managerA, { description: '叉车通道上有漏油' });
    const res = await call(t, s.managerA, 'GET', `/api/observations/${id}/report.pdf`, undefined, { 'accept-language': 'zh' });
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(serial_label);
    expect(text).toContain(tr('zh', 'observations.report.title'));
    expect(text).toContain('叉车通道上有漏油');
    // The Chinese font is embedded (a font without the glyphs would leave them as blanks).
    expect(res.rawPayload.toString('latin1')).toMatch(/NotoSansSC/);
  });
});

describe('rights and tenancy', () => {
  it('answers 403 to a user without Observation read', async () => {
    const { id } = await report(s.managerA);
    for (const url of [
      '/api/v2/observations',
      '/api/v2/observations/period_status_counts',
      '/api/observations/obs_data',
      '/api/observations/obs_hazard_types',
      `/api/observations/${id}`,
      `/api/observations/${id}/report.pdf`,
    ]) {
      expect((await call(t, s.nobodyA, 'GET', url)).statusCode, url).toBe(403);
    }
    expect((await call(t, s.nobodyA, 'PATCH', `/api/observations/${id}`, { description: 'x' })).statusCode).toBe(403);
  });

  it("keeps another organisation's observation invisible through every call", async () => {
    const up = (await upload(t, s.managerA, '/api/observations/attachments', 'a.png', PNG, 'image/png')).json().file.id as string;
    const { id, serial_label } = await report(s.managerA, { attachment_ids: [up], description: 'Secret of organisation A' });
    expect((await call(t, s.adminB, 'GET', `/api/observations/${id}`)).statusCode).toBe(404);
    expect((await call(t, s.adminB, 'GET', `/api/observations/${id}/report.pdf`)).statusCode).toBe(404);
    expect((await call(t, s.adminB, 'PATCH', `/api/observations/${id}`, { description: 'taken over' })).statusCode).toBe(404);
    expect((await call(t, s.adminB, 'PATCH', `/api/observations/${id}`, { close: { remarks: 'x' } })).statusCode).toBe(404);
    expect((await call(t, s.adminB, 'DELETE', `/api/observations/${id}`)).statusCode).toBe(404);
    expect((await call(t, s.adminB, 'GET', `/api/files/${up}`)).statusCode).toBe(404);
    expect((await call(t, s.adminB, 'DELETE', `/api/observations/attachments/${up}`)).statusCode).toBe(404);
    const list = (await call(t, s.adminB, 'GET', '/api/v2/observations?per_page=200&search=Secret')).json() as ObservationListResponse;
    expect(list.observations).toEqual([]);
    const bySerial = (await call(t, s.adminB, 'GET', `/api/v2/observations?search=${serial_label}`)).json() as ObservationListResponse;
    expect(bySerial.observations.map((o) => o.description)).not.toContain('Secret of organisation A');
    const exp = await call(t, s.adminB, 'GET', '/api/v2/observations?export_to_excel=true&search=Secret');
    expect((await readWorkbookRows(exp.rawPayload)).rows).toEqual([]);
    const counts = (
      await call(t, s.adminB, 'GET', '/api/v2/observations/period_status_counts?search=Secret')
    ).json() as ObservationStatusCounts;
    expect(counts.counts.all).toBe(0);
    // Organisation B cannot attach A's file to its own report either.
    const steal = await call(
      t,
      s.adminB,
      'POST',
      '/api/observations',
      body({ site_id: fb.tokyo, site_node_id: null, category_id: null, sub_category_id: null, attachment_ids: [up] }),
    );
    expect(steal.json().fields.attachment_ids).toBe(tr('en', 'observations.validation.attachmentUnknown'));
    // The actions list of B does not show A's observation actions.
    const acts = await call(t, s.adminB, 'GET', '/api/actions/observation_action_datas?per_page=200');
    expect(JSON.stringify(acts.json())).not.toContain(id);
  });
});
