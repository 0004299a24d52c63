import { oshaHoursWorked, translate, type Osha300, type Osha300A, type Osha301 } from '@bulwark/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers.js';
import { createIncident, getIncident, incidentWorld, pdfText, report, siteTime, victim, type World } from './incidents-support.js';

let t: TestApp;
let w: World;
let occurred: string;
let year: number;
const ids: Record<'away' | 'privacy' | 'notWork' | 'death' | 'firstAid', string> = {} as never;

const la = () => ({ site_id: w.la, site_node_id: null, occurred_at: occurred, osha_work_related: true });
const oshaCase = (over: Record<string, unknown> = {}) => ({ injury_type: 'injury', job_title: 'Press operator', ...over });

async function sheetText(bytes: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: string[][] = [];
  wb.worksheets[0]!.eachRow((row) =>
    out.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))),
  );
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  w = await incidentWorld(t, 'incosha');
  occurred = siteTime('America/Los_Angeles', -60);
  year = Number(occurred.slice(0, 4));
  const s = w.people.manager.s;
  ids.away = (
    await createIncident(
      t,
      s,
      report(w, {
        ...la(),
        description: 'Hand caught in the press',
        victims: [
          victim({ name: 'Alice Able', osha: oshaCase({ days_away: 5, medical_treatment: true }) }),
          victim({ name: 'Victor Visitor', type: 'visitor' }),
        ],
      }),
    )
  ).id;
  ids.privacy = (
    await createIncident(
      t,
      s,
      report(w, {
        ...la(),
        description: 'Contractor injured',
        victims: [
          victim({
            name: 'Paula Private',
            type: 'contractor',
            osha: oshaCase({ days_restricted: 3, day_to_day_supervised: true, privacy_reason: 'intimate_body_part' }),
          }),
        ],
      }),
    )
  ).id;
  ids.notWork = (
    await createIncident(
      t,
      s,
      report(w, { ...la(), osha_work_related: false, victims: [victim({ name: 'Off Duty', osha: oshaCase({ days_away: 2 }) })] }),
    )
  ).id;
  ids.death = (
    await createIncident(
      t,
      s,
      report(w, {
        ...la(),
        description: 'Fatal fall',
        victims: [victim({ name: 'Dan Died', osha: oshaCase({ died: true, date_of_death: occurred.slice(0, 10) }) })],
      }),
    )
  ).id;
  ids.firstAid = (await createIncident(t, s, report(w, { ...la(), victims: [victim({ name: 'Fay Firstaid', osha: oshaCase() })] }))).id;
  // Another establishment's case is on its own log.
  await createIncident(
    t,
    s,
    report(w, { osha_work_related: true, victims: [victim({ name: 'Tokyo Case', osha: oshaCase({ days_away: 1 }) })] }),
  );
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const log = async (session = w.people.reader.s) => {
  const res = await call(t, session, 'GET', `/api/incidents/osha/300?site_id=${w.la}&year=${year}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Osha300;
};

describe('recordability (29 CFR 1904.5, 1904.7, 1904.31) and case numbers', () => {
  it('logs work-related cases of employees and supervised contractors that meet a general criterion, each once', async () => {
    const l = await log();
    expect(l.rows.map((r) => [r.case_number, r.employee_name, r.classification])).toEqual([
      [`${year}-001`, 'Alice Able', 'days_away'],
      [`${year}-002`, null, 'job_transfer_restriction'],
      [`${year}-003`, 'Dan Died', 'death'],
    ]);
    expect(l.rows[0]).toMatchObject({
      job_title: 'Press operator',
      days_away: 5,
      days_restricted: 0,
      injury_type: 'injury',
      date: occurred.slice(0, 10),
    });
    expect(l.rows[0]!.description).toContain('Hand caught in the press');
    expect(l.totals).toMatchObject({
      deaths: 1,
      days_away_cases: 1,
      job_transfer_restriction_cases: 1,
      other_recordable_cases: 0,
      days_away: 5,
      days_restricted: 3,
    });
    expect(l.totals.injury_types.injury).toBe(3);
    const away = await getIncident(t, w.people.reader.s, ids.away);
    expect(away.osha_recordable).toBe(true);
    expect(away.victims[0]!.osha).toMatchObject({ recordable: true, classification: 'days_away', case_number: `${year}-001` });
    expect(away.victims[1]!.osha).toBeNull();
    expect((await getIncident(t, w.people.reader.s, ids.firstAid)).osha_recordable).toBe(false);
    expect((await getIncident(t, w.people.reader.s, ids.notWork)).victims[0]!.osha).toMatchObject({ recordable: false, case_number: null });
  });

  it('keeps a case number when the case leaves the log, and gives it back when it returns', async () => {
    const off = await call(t, w.people.manager.s, 'PATCH', `/api/v2/incidents/${ids.away}`, { osha_work_related: false });
    expect(off.statusCode, off.body).toBe(200);
    expect((await log()).rows.map((r) => r.case_number)).toEqual([`${year}-002`, `${year}-003`]);
    await call(t, w.people.manager.s, 'PATCH', `/api/v2/incidents/${ids.away}`, { osha_work_related: true });
    expect((await log()).rows.map((r) => r.case_number)).toEqual([`${year}-001`, `${year}-002`, `${year}-003`]);
  });

  it('refuses a request privacy case for an injury and more than 180 days, in the reader’s language', async () => {
    const res = await call(
      t,
      w.people.manager.s,
      'POST',
      '/api/incidents',
      {
        incident: report(w, { ...la(), victims: [victim({ osha: oshaCase({ privacy_reason: 'employee_request', days_away: 181 }) })] }),
      },
      { 'accept-language': 'zh' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'incident.victims.0.osha.privacy_reason': translate('zh', 'incidents.validation.oshaRequestIllnessOnly'),
      'incident.victims.0.osha.days_away': translate('zh', 'incidents.validation.oshaDaysCap'),
    });
  });
});

describe('the privacy case (29 CFR 1904.29(b)(6)–(9))', () => {
  it('is unnamed on the log; only incident managers see the confidential list, never in the PDF or workbook', async () => {
    expect((await log()).privacy_list).toBeNull();
    expect((await log(w.people.manager.s)).privacy_list).toEqual([{ case_number: `${year}-002`, employee_name: 'Paula Private' }]);
    const pdf = await call(t, w.people.manager.s, 'GET', `/api/incidents/osha/300.pdf?site_id=${w.la}&year=${year}`);
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain(translate('en', 'incidents.osha.log.title'));
    expect(text).toContain(`${year}-002`);
    expect(text).toContain(translate('en', 'incidents.privacyCase'));
    expect(text).toContain('Alice Able');
    expect(text).not.toContain('Paula Private');
    const xlsx = await call(t, w.people.manager.s, 'GET', `/api/incidents/osha/300?site_id=${w.la}&year=${year}&export_to_excel=true`);
    const rows = await sheetText(xlsx.rawPayload);
    expect(JSON.stringify(rows)).not.toContain('Paula Private');
    const header = rows.find((r) => r[0] === translate('en', 'incidents.osha.log.columns.caseNumber'))!;
    expect(header).toHaveLength(18);
    const privacyRow = rows.find((r) => r[0] === `${year}-002`)!;
    expect(privacyRow[1]).toBe(translate('en', 'incidents.privacyCase'));
    expect(privacyRow[8]).toBe('X');
  });
});

describe('OSHA 300A and 301', () => {
  it('sums the log and takes employment from the site’s monthly manpower (8 h per working day)', async () => {
    const set = await call(t, w.people.admin.s, 'PUT', '/api/sites/manpower', { year, entries: [{ site_id: w.la, month: 1, total: 40 }] });
    expect(set.statusCode, set.body).toBe(200);
    const res = await call(t, w.people.reader.s, 'GET', `/api/incidents/osha/300a?site_id=${w.la}&year=${year}`);
    const s = res.json() as Osha300A;
    const months = [40, ...Array(11).fill(100)];
    expect(s.monthly_manpower).toEqual(months);
    expect(s.average_employees).toBe(Math.round((40 + 11 * 100) / 12));
    expect(s.hours_worked).toBe(oshaHoursWorked(year, months));
    expect(s.totals).toMatchObject({ deaths: 1, days_away_cases: 1, job_transfer_restriction_cases: 1, days_away: 5 });
    const pdf = (
      await pdfText((await call(t, w.people.reader.s, 'GET', `/api/incidents/osha/300a.pdf?site_id=${w.la}&year=${year}`)).rawPayload)
    ).replace(/\s+/g, ' ');
    expect(pdf).toContain(translate('en', 'incidents.osha.summary.averageEmployees'));
    expect(pdf).toContain(String(s.hours_worked));
    const xlsx = await sheetText(
      (await call(t, w.people.reader.s, 'GET', `/api/incidents/osha/300a?site_id=${w.la}&year=${year}&export_to_excel=true`)).rawPayload,
    );
    expect(xlsx.find((r) => r[0] === translate('en', 'incidents.osha.summary.hoursWorked'))?.[1]).toBe(String(s.hours_worked));
  });

  it('reports one recordable case on the 301, and no other victim', async () => {
    const o = await getIncident(t, w.people.reader.s, ids.away);
    const [alice, visitor] = o.victims;
    const res = await call(t, w.people.reader.s, 'GET', `/api/incidents/${ids.away}/victims/${alice!.id}/osha_301`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json() as Osha301).toMatchObject({
      employee: { name: 'Alice Able', gender: 'male', job_title: 'Press operator' },
      treatment: { taken_to_hospital: true },
      case: {
        case_number: `${year}-001`,
        date_of_injury: occurred.slice(0, 10),
        time_of_event: occurred.slice(11),
        classification: 'days_away',
        days_away: 5,
      },
    });
    expect((await call(t, w.people.reader.s, 'GET', `/api/incidents/${ids.away}/victims/${visitor!.id}/osha_301`)).statusCode).toBe(404);
    const pdf = (
      await pdfText((await call(t, w.people.reader.s, 'GET', `/api/incidents/${ids.away}/victims/${alice!.id}/osha_301.pdf`)).rawPayload)
    ).replace(/\s+/g, ' ');
    expect(pdf).toContain(translate('en', 'incidents.osha.report301.subtitle'));
    expect(pdf).toContain('Hand caught in the press');
    const xlsx = await sheetText(
      (await call(t, w.people.reader.s, 'GET', `/api/incidents/${ids.away}/victims/${alice!.id}/osha_301?export_to_excel=true`)).rawPayload,
    );
    expect(xlsx.find((r) => r[0] === translate('en', 'incidents.osha.fields.caseNumber'))?.[1]).toBe(`${year}-001`);
    expect((await call(t, w.people.nobody.s, 'GET', `/api/incidents/osha/300?site_id=${w.la}&year=${year}`)).statusCode).toBe(403);
  });
});
