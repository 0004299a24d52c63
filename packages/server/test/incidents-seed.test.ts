import type { IncidentListResponse, IncidentStatusCounts, Osha300 } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, seedDemo } from '../src/seed.js';
import { call, createTestApp, signIn, type Session, type TestApp } from './helpers.js';
import { getIncident, pdfText } from './incidents-support.js';

let t: TestApp;
let admin: Session;

beforeAll(async () => {
  t = await createTestApp();
  await seedDemo(t.deps.db.app);
  admin = await signIn(t, DEMO.subDomain, DEMO.admin.email, DEMO.password);
}, 120_000);
afterAll(() => t.close());

describe('the demo organisation’s incidents', () => {
  it('holds incidents in every status and in the investigation states a seed can reach', async () => {
    const counts = ((await call(t, admin, 'GET', '/api/v2/incidents/period_status_counts')).json() as IncidentStatusCounts).counts;
    expect(counts.open).toBeGreaterThanOrEqual(1);
    expect(counts.overdue).toBeGreaterThanOrEqual(1);
    expect(counts.closed).toBeGreaterThanOrEqual(1);
    expect(counts.rating_pending).toBeGreaterThanOrEqual(1);
    const list = (await call(t, admin, 'GET', '/api/v2/incidents')).json() as IncidentListResponse;
    expect(new Set(list.incidents.map((i) => i.investigation_state))).toEqual(new Set(['awaiting_team', 'in_progress', 'not_required']));
    expect(list.incidents.map((i) => i.serial_label).sort()).toEqual([
      'INC-000001',
      'INC-000002',
      'INC-000003',
      'INC-000004',
      'INC-000005',
    ]);
    const investigating = list.incidents.find((i) => i.investigation_state === 'in_progress' && i.status === 'open')!;
    const o = await getIncident(t, admin, investigating.id);
    expect(o.investigation).toMatchObject({ current_step: 6, lead: { full_name: expect.any(String) } });
    expect(o.investigation.factors[0]!.root_causes[0]!.name).toBe('Induction skipped');
    expect(await pdfText((await call(t, admin, 'GET', `/api/incidents/${o.id}/report.pdf`)).rawPayload)).toContain(o.serial_label);
  });

  it('puts its recordable case on the OSHA 300 log of its site', async () => {
    const sites = (await call(t, admin, 'GET', '/api/incidents/incident_data')).json().sites as Array<{ id: string; name: string }>;
    const riverside = sites.find((s) => s.name === 'Riverside Manufacturing Plant')!;
    const list = (
      await call(t, admin, 'GET', `/api/v2/incidents?site_id=${riverside.id}&type=injury&search=press`)
    ).json() as IncidentListResponse;
    const year = list.incidents[0]!.occurred_at.slice(0, 4);
    const log = (await call(t, admin, 'GET', `/api/incidents/osha/300?site_id=${riverside.id}&year=${year}`)).json() as Osha300;
    expect(log.rows).toMatchObject([
      { case_number: `${year}-001`, employee_name: 'Sam Okafor', classification: 'days_away', days_away: 6, days_restricted: 10 },
    ]);
  });
});
