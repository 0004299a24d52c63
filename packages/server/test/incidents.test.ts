import { translate, type IncidentListResponse, type IncidentStatusCounts } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWorkbookRows } from '../src/platform/export/excel.js';
import { call, createTestApp, upload, type TestApp } from './helpers.js';
import { createIncident, footprint, getIncident, incidentWorld, PNG, report, siteTime, victim, type World } from './incidents-support.js';

let t: TestApp;
let w: World;
let other: World;
const NIL = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  w = await incidentWorld(t, 'inca');
  other = await incidentWorld(t, 'incb');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const post = (s = w.people.reporter.s, body: Record<string, unknown> = report(w), lang?: string) =>
  call(t, s, 'POST', '/api/incidents', { incident: body }, lang ? { 'accept-language': lang } : {});

describe('POST /api/incidents (step 1, the report)', () => {
  it('records every field and victim, numbers incidents per organisation and tells the head of safety', async () => {
    const first = await createIncident(t, w.people.reporter.s, report(w));
    const second = await createIncident(
      t,
      w.people.reporter.s,
      report(w, { site_id: w.la, site_node_id: null, occurred_at: siteTime('America/Los_Angeles', -5) }),
    );
    expect(second.serial).toBe(first.serial + 1);
    expect(second.serial_label).toBe(`INC-${String(second.serial).padStart(6, '0')}`);
    expect((await createIncident(t, other.people.reporter.s, report(other))).serial).toBe(1);

    const o = await getIncident(t, w.people.reporter.s, first.id);
    expect(o).toMatchObject({
      type: 'injury',
      category: { id: w.fall, name: 'Fall from height' },
      site: { id: w.tokyo, name: 'Tokyo Works', time_zone: 'Asia/Tokyo' },
      site_node: { id: w.tokyoArea, full_name: 'Tokyo Works / Press shop' },
      shift: 'first',
      severity: 'serious',
      likelihood: 'possible',
      rating_pending: false,
      risk_score: 4,
      risk_level: 'low',
      status: 'open',
      source: 'staff',
      reporter: { id: w.people.reporter.id, full_name: 'Rita Reporter', guest: false },
      investigation: { state: 'awaiting_team', current_step: 2 },
      victims: [
        {
          name: 'Kenji Sato',
          type: 'employee',
          gender: 'male',
          body_parts: ['left_hand', 'left_fingers'],
          taken_to_hospital: true,
          osha: null,
        },
      ],
    });
    // The local time is the site's; the instant is that wall time in Tokyo (UTC+9).
    expect(new Date(o.occurred_at_utc).getTime()).toBe(Date.parse(`${o.occurred_at}:00+09:00`));
    const { rows } = await t.deps.db.ownerPool.query<{ user_id: string; title: string }>(
      'select user_id, title from notifications where organization_id = $1 and user_id = $2',
      [w.org.id, w.people.manager.id],
    );
    expect(rows.some((r) => r.title.includes(o.serial_label))).toBe(true);
  });

  it('is "rating pending" until severity and likelihood are both set, and the list filters on it', async () => {
    const { id } = await createIncident(
      t,
      w.people.reporter.s,
      report(w, { severity: 'major', likelihood: null, description: 'Pending rating one' }),
    );
    const o = await getIncident(t, w.people.reporter.s, id);
    expect(o).toMatchObject({ rating_pending: true, risk_score: null, risk_level: null });
    const list = (await call(t, w.people.reader.s, 'GET', '/api/v2/incidents?severity=pending')).json() as IncidentListResponse;
    expect(list.incidents.map((i) => i.id)).toContain(id);
    expect(list.incidents.every((i) => i.rating_pending)).toBe(true);
    const rated = await call(t, w.people.manager.s, 'PATCH', `/api/v2/incidents/${id}`, { likelihood: 'often' });
    expect(rated.statusCode, rated.body).toBe(200);
    // major (3) × often (4)
    expect(rated.json().incident).toMatchObject({ rating_pending: false, risk_score: 12, risk_level: 'high' });
  });

  it('refuses a time in the future at the site, in the reader’s language, and writes nothing', async () => {
    const before = await footprint(t, w.org.id);
    // 90 minutes ahead in Tokyo is the future there, whatever the server's clock.
    const res = await post(w.people.reporter.s, report(w, { occurred_at: siteTime('Asia/Tokyo', 90) }), 'es');
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ 'incident.occurred_at': translate('es', 'incidents.validation.futureTime') });
    // The same wall time is in the past in Los Angeles' own zone only when it is there: judged per site.
    const la = await post(
      w.people.reporter.s,
      report(w, { site_id: w.la, site_node_id: null, occurred_at: siteTime('America/Los_Angeles', -1) }),
    );
    expect(la.statusCode, la.body).toBe(201);
    expect((await footprint(t, w.org.id)).incidents).toBe(before.incidents + 1);
  });

  it.each([
    ['no victim', { victims: [] }, 'victims', 'incidents.validation.victimsRequired'],
    ['a name of signs', { victims: [victim({ name: 'Bob <script>' })] }, 'victims.0.name', 'incidents.validation.victimNameChars'],
    ['no gender', { victims: [victim({ gender: undefined })] }, 'victims.0.gender', 'incidents.validation.gender'],
    ['no action taken', { action_taken: ' ' }, 'action_taken', 'incidents.validation.actionTaken'],
    ['no description', { description: '' }, 'description', 'validation.required'],
    ['no type', { type: undefined }, 'type', 'incidents.validation.type'],
    ['a category of another type', { category_id: 'spill' }, 'category_id', 'incidents.validation.categoryUnknown'],
    ['an inactive category', { category_id: 'retired' }, 'category_id', 'incidents.validation.categoryUnknown'],
    ['an inactive site', { site_id: 'inactive', site_node_id: null }, 'site_id', 'incidents.validation.siteUnknown'],
    ['an area of another site', { site_id: 'la' }, 'site_node_id', 'incidents.validation.nodeUnknown'],
    [
      'a return before the incident',
      { victims: [victim({ return_to_work_date: '2001-01-01' })] },
      'victims.0.return_to_work_date',
      'incidents.validation.returnBeforeIncident',
    ],
    [
      'an OSHA case for a visitor',
      { victims: [victim({ type: 'visitor', osha: { injury_type: 'injury' } })] },
      'victims.0.osha',
      'incidents.validation.oshaNotCovered',
    ],
    ['an unknown severity', { severity: 'apocalyptic' }, 'severity', 'validation.invalid'],
  ])('refuses %s with a clear field error and writes nothing', async (_what, over, field, key) => {
    const before = await footprint(t, w.org.id);
    const resolved = Object.fromEntries(
      Object.entries(over).map(([k, v]) => [k, typeof v === 'string' && v in w ? (w as unknown as Record<string, string>)[v] : v]),
    );
    const res = await post(w.people.reporter.s, report(w, resolved), 'tr');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields[`incident.${field}`]).toBe(translate('tr', key));
    expect(await footprint(t, w.org.id)).toEqual(before);
  });

  it('accepts names of letters and digits of any script, with the signs real names carry', async () => {
    for (const name of ['Zhang Wei 张伟', 'Mary-Jane O’Neil Jr.', 'İlker Çağlar 2']) {
      const res = await post(w.people.reporter.s, report(w, { victims: [victim({ name })] }));
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
    }
  });

  it('links the reporter’s own uploads only, once', async () => {
    const up = await upload(t, w.people.reporter.s, '/api/incidents/attachments', 'ladder.png', PNG, 'image/png');
    expect(up.statusCode, up.body).toBe(201);
    const file = up.json().file.id as string;
    const theirs = (await upload(t, w.people.manager.s, '/api/incidents/attachments', 'x.png', PNG, 'image/png')).json().file.id as string;
    const refused = await post(w.people.reporter.s, report(w, { attachment_ids: [theirs] }));
    expect(refused.json().fields).toEqual({ 'incident.attachment_ids': translate('en', 'incidents.validation.attachmentUnknown') });
    const ok = await createIncident(t, w.people.reporter.s, report(w, { attachment_ids: [file] }));
    expect((await getIncident(t, w.people.reader.s, ok.id)).attachments.map((a) => a.id)).toEqual([file]);
    const again = await post(w.people.reporter.s, report(w, { attachment_ids: [file] }));
    expect(again.statusCode).toBe(400);
    // The file is served to whoever reads incidents, and to nobody without the right.
    expect((await call(t, w.people.reader.s, 'GET', `/api/files/${file}`)).statusCode).toBe(200);
    expect((await call(t, w.people.nobody.s, 'GET', `/api/files/${file}`)).statusCode).toBe(404);
  });
});

describe('guards (spec 000 §2: Incident read, create; update, close, delete by the role matrix)', () => {
  it('lets readers read, reporters report, and refuses people without Incident rights', async () => {
    const { id } = await createIncident(t, w.people.reporter.s, report(w));
    expect((await call(t, null, 'GET', '/api/v2/incidents', undefined, { 'x-tenant': 'inca' })).statusCode).toBe(401);
    expect((await call(t, null, 'POST', '/api/incidents', { incident: report(w) }, { 'x-tenant': 'inca' })).statusCode).toBe(401);
    expect((await call(t, w.people.nobody.s, 'GET', '/api/v2/incidents')).statusCode).toBe(403);
    expect((await call(t, w.people.nobody.s, 'GET', `/api/incidents/${id}`)).statusCode).toBe(403);
    expect((await call(t, w.people.reader.s, 'GET', `/api/incidents/${id}`)).statusCode).toBe(200);
    expect((await post(w.people.reader.s)).statusCode).toBe(403);
    expect((await call(t, w.people.reader.s, 'PATCH', `/api/v2/incidents/${id}`, { description: 'Changed' })).statusCode).toBe(403);
    expect((await call(t, w.people.reporter.s, 'POST', `/api/incidents/${id}/close`, { remarks: 'x' })).statusCode).toBe(403);
    expect((await call(t, w.people.manager.s, 'DELETE', `/api/incidents/${id}`)).statusCode).toBe(200);
    expect((await call(t, w.people.reader.s, 'GET', `/api/incidents/${id}`)).statusCode).toBe(404);
  });

  it('answers another organisation’s incident as not found, and an unknown id too', async () => {
    const theirs = await createIncident(t, other.people.reporter.s, report(other));
    for (const url of [`/api/incidents/${theirs.id}`, `/api/incidents/${NIL}`, `/api/incidents/${theirs.id}/report.pdf`]) {
      expect((await call(t, w.people.admin.s, 'GET', url)).statusCode, url).toBe(404);
    }
    expect((await call(t, w.people.admin.s, 'PATCH', `/api/v2/incidents/${theirs.id}`, { description: 'x' })).statusCode).toBe(404);
    expect((await call(t, w.people.admin.s, 'DELETE', `/api/incidents/${theirs.id}`)).statusCode).toBe(404);
  });
});

describe('PATCH /api/v2/incidents/{id}', () => {
  it('replaces the victims as a whole list, keeping the ones named by id', async () => {
    const { id } = await createIncident(
      t,
      w.people.reporter.s,
      report(w, { victims: [victim(), victim({ name: 'Second Person', type: 'visitor' })] }),
    );
    const before = await getIncident(t, w.people.manager.s, id);
    const kept = before.victims[0]!;
    const res = await call(t, w.people.manager.s, 'PATCH', `/api/v2/incidents/${id}`, {
      victims: [
        { ...victim({ name: 'Kenji Sato' }), id: kept.id, injury_details: 'Two fingers crushed' },
        victim({ name: 'Third Person' }),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json().incident;
    expect(after.victims.map((v: { name: string }) => v.name)).toEqual(['Kenji Sato', 'Third Person']);
    expect(after.victims[0]).toMatchObject({ id: kept.id, injury_details: 'Two fingers crushed' });
    // A victim id of another incident is refused.
    const otherOne = await createIncident(t, w.people.reporter.s, report(w));
    const foreign = (await getIncident(t, w.people.manager.s, otherOne.id)).victims[0]!.id;
    const bad = await call(t, w.people.manager.s, 'PATCH', `/api/v2/incidents/${id}`, { victims: [{ ...victim(), id: foreign }] });
    expect(bad.json().fields).toEqual({ 'victims.0.id': translate('en', 'incidents.validation.victimUnknown') });
  });

  it('lets the reporter’s report be corrected only by incident managers or the team, and refuses an empty edit', async () => {
    const { id } = await createIncident(t, w.people.reporter.s, report(w));
    expect((await call(t, w.people.reporter.s, 'PATCH', `/api/v2/incidents/${id}`, { shift: 'second' })).statusCode).toBe(403);
    const empty = await call(t, w.people.manager.s, 'PATCH', `/api/v2/incidents/${id}`, {});
    expect(empty.statusCode).toBe(400);
    const ok = await call(t, w.people.manager.s, 'PATCH', `/api/v2/incidents/${id}`, { shift: 'second', investigation_required: false });
    expect(ok.json().incident).toMatchObject({ shift: 'second', investigation: { state: 'not_required', current_step: 1 } });
  });
});

describe('GET /api/v2/incidents, period_status_counts and the export', () => {
  it('filters, counts and exports exactly the same rows', async () => {
    const spill = await createIncident(
      t,
      w.people.reporter.s,
      report(w, {
        type: 'environmental',
        category_id: w.spill,
        description: 'Hydraulic oil spill ZXQ',
        victims: [victim({ name: 'Yuki Mori' })],
      }),
    );
    const q = '?type=environmental&site_id=' + w.tokyo + '&search=ZXQ';
    const list = (await call(t, w.people.reader.s, 'GET', `/api/v2/incidents${q}`)).json() as IncidentListResponse;
    expect(list.incidents.map((i) => i.id)).toEqual([spill.id]);
    expect(list.pagination).toMatchObject({ per_page: 50, total: 1 });
    const byVictim = (await call(t, w.people.reader.s, 'GET', '/api/v2/incidents?search=Yuki')).json() as IncidentListResponse;
    expect(byVictim.incidents.map((i) => i.id)).toEqual([spill.id]);
    const counts = (await call(t, w.people.reader.s, 'GET', `/api/v2/incidents/period_status_counts${q}`)).json() as IncidentStatusCounts;
    expect(counts.counts).toMatchObject({ all: 1, open: 1, overdue: 0, closed: 0 });
    const all = (await call(t, w.people.reader.s, 'GET', '/api/v2/incidents/period_status_counts')).json() as IncidentStatusCounts;
    const total = (await call(t, w.people.reader.s, 'GET', '/api/v2/incidents?per_page=1')).json() as IncidentListResponse;
    expect(all.counts.all).toBe(total.pagination.total);
    expect(all.counts.all).toBe(all.counts.open + all.counts.overdue + all.counts.closed);

    const xlsx = await call(t, w.people.reader.s, 'GET', `/api/v2/incidents${q}&export_to_excel=true`);
    expect(xlsx.statusCode).toBe(200);
    const sheet = await readWorkbookRows(xlsx.rawPayload);
    expect(sheet.rows).toHaveLength(1);
    expect(Object.values(sheet.rows[0]!.values)).toContain('Hydraulic oil spill ZXQ');
    expect(sheet.headers).toContain(translate('en', 'incidents.fields.investigationState'));

    const bad = await call(t, w.people.reader.s, 'GET', '/api/v2/incidents?from=2026-05-02&to=2026-05-01');
    expect(bad.json().fields).toEqual({ to: translate('en', 'incidents.validation.dateRange') });
  });
});
