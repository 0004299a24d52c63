import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkbook } from '../src/platform/export/excel.js';
import { call, createTestApp, upload, type Session, type TestApp } from './helpers.js';
import { createPermit, permitWorld, PNG, requestBody, type PermitWorld } from './permits-support.js';

/**
 * The four masters (admin only, spec 000 §6) with their Excel import and export, and worker profiles:
 * searchable by name, phone or ID, the recently used first, photos under 500 KB.
 */
let t: TestApp;
let w: PermitWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await permitWorld(t, 'ptwset');
});
afterAll(() => t?.close());

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const rowsOf = async (bytes: Buffer) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: string[][] = [];
  wb.worksheets[0]!.eachRow((r) => out.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return out;
};
const sheet = (rows: Array<Record<string, string>>) =>
  buildWorkbook(
    'Entries',
    ['Name', 'Description', 'Control level', 'Active'].map((h) => ({
      header: h,
      key: h,
      value: (r: Record<string, string>) => r[h] ?? '',
    })),
    rows,
  );

describe('masters (admin only)', () => {
  it('an admin adds, edits and switches off entries; nobody else may', async () => {
    expect((await call(t, w.people.setter.s, 'POST', '/api/equipment_masters', { name: 'Welding set' })).statusCode).toBe(403);
    expect((await call(t, w.people.setter.s, 'GET', '/api/equipment_masters')).statusCode).toBe(403);
    const made = await call(t, w.people.admin.s, 'POST', '/api/equipment_masters', { name: 'Welding set', description: 'Inverter, 200 A' });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().entry.id as string;
    const dup = await call(t, w.people.admin.s, 'POST', '/api/equipment_masters', { name: 'WELDING SET' });
    expect(dup.json().fields.name).toBe('An entry of this name exists already.');
    // A name is one master's: the activity master may hold the same.
    expect((await call(t, w.people.admin.s, 'POST', '/api/activity_masters', { name: 'Welding set' })).statusCode).toBe(201);
    const off = await call(t, w.people.admin.s, 'PATCH', `/api/equipment_masters/${id}`, { active: false });
    expect(off.json().entry.active).toBe(false);
    const form = await call(t, w.people.requester.s, 'GET', `/api/permit_form_questions/${w.hotWork}`);
    expect(form.json().masters.equipment.map((e: { id: string }) => e.id)).not.toContain(id);
    // Another master's id is not this one's.
    expect((await call(t, w.people.admin.s, 'PATCH', `/api/rescue_masters/${id}`, { name: 'x' })).statusCode).toBe(404);
  });

  it('the hierarchy of controls names each entry’s level; the other masters have none', async () => {
    const missing = await call(t, w.people.admin.s, 'POST', '/api/hierarchy_of_controls', { name: 'Fire blanket' });
    expect(missing.json().fields.control_level).toBe('Choose the control level.');
    const ok = await call(t, w.people.admin.s, 'POST', '/api/hierarchy_of_controls', {
      name: 'Fire blanket',
      control_level: 'engineering',
    });
    expect(ok.json().entry.control_level).toBe('engineering');
    const extra = await call(t, w.people.admin.s, 'POST', '/api/rescue_masters', { name: 'Tripod', control_level: 'ppe' });
    expect(extra.statusCode).toBe(400);
  });

  it('imports every row or none, adding new names and updating known ones, with labels in any language', async () => {
    await call(t, w.people.admin.s, 'POST', '/api/rescue_masters', { name: 'Tripod and winch' });
    const template = await call(t, w.people.admin.s, 'GET', '/api/hierarchy_of_controls/import_template');
    expect(template.statusCode).toBe(200);
    expect((await rowsOf(template.rawPayload))[0]).toEqual(['Name', 'Description', 'Control level', 'Active']);
    const bad = await upload(
      t,
      w.people.admin.s,
      '/api/rescue_masters/import',
      'r.xlsx',
      await sheet([{ Name: 'Stretcher' }, { Name: '', Description: 'Nameless' }, { Name: 'Hoist', Active: 'maybe' }]),
      XLSX,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().rows.map((r: { row: number; field: string }) => `${r.row}.${r.field}`)).toEqual(['3.name', '4.active']);
    const listed = async () =>
      (await call(t, w.people.admin.s, 'GET', '/api/rescue_masters'))
        .json()
        .entries.map((e: { name: string; description: string | null }) => e.name);
    expect(await listed()).toEqual(['Tripod and winch']);
    const good = await upload(
      t,
      w.people.admin.s,
      '/api/rescue_masters/import',
      'r.xlsx',
      await sheet([{ Name: 'Stretcher' }, { Name: 'tripod AND winch', Description: 'Confined space entry', Active: 'Sí' }]),
      XLSX,
    );
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toEqual({ created: 1, updated: 1, errors: [] });
    expect(await listed()).toEqual(['Stretcher', 'tripod AND winch']);
    const hoc = await upload(
      t,
      w.people.admin.s,
      '/api/hierarchy_of_controls/import',
      'h.xlsx',
      // The level as the Spanish template's levels sheet writes it (actions.controlType.engineering).
      await sheet([{ Name: 'Guard rail', 'Control level': 'Controles de ingeniería' }]),
      XLSX,
    );
    expect(hoc.json()).toMatchObject({ created: 1 });
    const hocEntries = (await call(t, w.people.admin.s, 'GET', '/api/hierarchy_of_controls?search=guard')).json().entries;
    expect(hocEntries.map((e: { name: string; control_level: string }) => [e.name, e.control_level])).toEqual([
      ['Guard rail', 'engineering'],
    ]);
  });

  it('exports exactly the filtered rows', async () => {
    const res = await call(t, w.people.admin.s, 'GET', '/api/rescue_masters?export_to_excel=true&search=stretch');
    expect(res.headers['content-type']).toBe(XLSX);
    const rows = await rowsOf(res.rawPayload);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['Stretcher']);
  });
});

describe('worker profiles', () => {
  it('are created in the request flow, edited and switched off on the settings screen', async () => {
    const made = await call(t, w.people.requester.s, 'POST', '/api/work_profiles', {
      name: 'Ola Rigger',
      id_number: 'R-77',
      phone: '+44 20 7946 0000',
      gender: 'female',
      age: 29,
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().worker.id as string;
    expect((await call(t, w.people.requester.s, 'PATCH', `/api/work_profiles/${id}`, { age: 30 })).statusCode).toBe(403);
    const bad = await call(t, w.people.requester.s, 'POST', '/api/work_profiles', { name: 'X1', phone: '123', gender: 'other', age: 12 });
    expect(Object.keys(bad.json().fields).sort()).toEqual(['age', 'gender', 'name', 'phone']);
    const off = await call(t, w.people.setter.s, 'PATCH', `/api/work_profiles/${id}`, { active: false });
    expect(off.json().worker.active).toBe(false);
    const refused = await call(t, w.people.requester.s, 'POST', '/api/permit_requests', {
      ...(await requestBody(t, w, w.lifting)),
      worker_ids: [id],
    });
    expect(refused.json().fields.worker_ids).toBe('Choose active workers.');
    const list = await call(t, w.people.setter.s, 'GET', '/api/work_profiles?status=inactive');
    expect(list.json().workers.map((x: { name: string }) => x.name)).toEqual(['Ola Rigger']);
  });

  it('a photo is a JPEG or PNG under 500 KB, uploaded by the one who names it', async () => {
    const photo = await upload(t, w.people.requester.s, '/api/work_profiles/photo', 'face.png', PNG, 'image/png');
    expect(photo.statusCode, photo.body).toBe(201);
    const big = await upload(
      t,
      w.people.requester.s,
      '/api/work_profiles/photo',
      'big.png',
      Buffer.concat([PNG, Buffer.alloc(600 * 1024)]),
      'image/png',
    );
    expect(big.statusCode).toBe(413);
    const theirs = await call(t, w.people.colleague.s, 'POST', '/api/work_profiles', {
      name: 'Pat Painter',
      photo_id: photo.json().file.id,
    });
    expect(theirs.json().fields.photo_id).toBeDefined();
    const mine = await call(t, w.people.requester.s, 'POST', '/api/work_profiles', { name: 'Pat Painter', photo_id: photo.json().file.id });
    expect(mine.json().worker.photo).toEqual({ id: photo.json().file.id });
  });

  it('are found by name, phone or ID, the ones this requester named last first', async () => {
    const recent = async (s: Session, value = '') => {
      const res = await call(t, s, 'GET', `/api/v1/work_profile/find_recent_workers?value=${encodeURIComponent(value)}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().workers.map((x: { name: string }) => x.name);
    };
    expect(await recent(w.people.reader.s, 'F-002')).toEqual(['Finn Fitter']);
    expect(await recent(w.people.reader.s, '7946 0958')).toEqual(expect.arrayContaining(['Finn Fitter', 'Will Welder']));
    // The colleague names Finn; for the colleague Finn comes first, for the requester (who named Will) Will does.
    await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting, { worker_ids: [w.workers[0]] }));
    await createPermit(t, w.people.colleague.s, await requestBody(t, w, w.lifting, { worker_ids: [w.workers[1]] }));
    expect((await recent(w.people.colleague.s)).slice(0, 2)).toEqual(['Finn Fitter', 'Will Welder']);
    expect((await recent(w.people.requester.s)).slice(0, 2)).toEqual(['Will Welder', 'Finn Fitter']);
    expect((await call(t, w.people.outsider.s, 'GET', '/api/v1/work_profile/find_recent_workers')).statusCode).toBe(403);
  });
});
