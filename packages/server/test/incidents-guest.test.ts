import { translate, type IncidentListResponse } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_INCIDENTS_PER_HOUR } from '../src/modules/incidents/routes.js';
import { createGuest } from './attack/actors.js';
import { call, createTestApp, multipart, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';
import {
  createIncident,
  footprint,
  getIncident,
  incidentWorld,
  investigate,
  PNG,
  report,
  siteTime,
  victim,
  type World,
} from './incidents-support.js';

let t: TestApp;
let w: World;
let other: World;
let guest: Session;

function guestBody(over: Record<string, unknown> = {}) {
  return {
    type: 'injury',
    description: 'A visitor tripped on a hose at the gate',
    site_id: w.tokyo,
    occurred_at: siteTime('Asia/Tokyo', -10),
    action_taken: 'Hose rolled up',
    victims: [{ type: 'visitor', name: 'Sam Visitor', gender: 'male', body_parts: ['right_ankle'] }],
    reporter_name: 'Sam Visitor',
    reporter_email: 'sam@example.com',
    attachment_ids: [],
    ...over,
  };
}

const outer = (url: string, payload: unknown, ip: string, tenant = 'incguest', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as never, remoteAddress: ip, headers: { 'x-tenant': tenant, ...headers } });

beforeAll(async () => {
  t = await createTestApp();
  w = await incidentWorld(t, 'incguest');
  other = await incidentWorld(t, 'incguestb');
  await createGuest(t, w.people.admin.s, 'incguest', 'visitor@guests.test', PASSWORD);
  guest = await signIn(t, 'incguest', 'visitor@guests.test');
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('/incident: the signed-out guest form of the sub-domain', () => {
  it('offers the organisation’s active sites and the report’s choices, and no people', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/incidents/out_incident_data', headers: { 'x-tenant': 'incguest' } });
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data.organization).toEqual({ name: 'incguest Ltd' });
    expect(data.sites.map((s: { name: string }) => s.name).sort()).toEqual(['Los Angeles Yard', 'Tokyo Works']);
    expect(data.body_parts).toContainEqual({ key: 'upper_back', view: 'back' });
    expect(JSON.stringify(data)).not.toMatch(/@incguest\.test|Priya/);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/incidents/out_incident_data', headers: { 'x-tenant': 'nosuchorg' } });
    expect(unknown.statusCode).toBe(404);
  });

  it('files the report for the organisation of the address, awaiting its team, with the guest’s file', async () => {
    const m = multipart('gate.png', PNG, 'image/png');
    const up = await outer('/api/incidents/outer/attachments', m.payload, '10.77.0.1', 'incguest', m.headers);
    expect(up.statusCode, up.body).toBe(201);
    const res = await outer('/api/incidents/outer', guestBody({ attachment_ids: [up.json().file.id] }), '10.77.0.1');
    expect(res.statusCode, res.body).toBe(201);
    const o = await getIncident(t, w.people.manager.s, res.json().id);
    expect(o).toMatchObject({
      source: 'guest',
      reporter: { id: null, full_name: 'Sam Visitor', email: 'sam@example.com', guest: true },
      investigation_required: true,
      investigation: { state: 'awaiting_team' },
      victims: [{ name: 'Sam Visitor', type: 'visitor', osha: null }],
      attachments: [{ file_name: 'gate.png' }],
    });
    // A site of another organisation is unknown here.
    const foreign = await outer('/api/incidents/outer', guestBody({ site_id: other.tokyo }), '10.77.0.2');
    expect(foreign.json().fields).toEqual({ site_id: translate('en', 'incidents.validation.siteUnknown') });
  });

  it('refuses bad reports in the reader’s language and writes nothing', async () => {
    const before = await footprint(t, w.org.id);
    const res = await outer('/api/incidents/outer', guestBody({ victims: [], occurred_at: 'yesterday' }), '10.77.0.3', 'incguest', {
      'accept-language': 'es',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      victims: translate('es', 'incidents.validation.victimsRequired'),
      occurred_at: translate('es', 'incidents.validation.occurredAt'),
    });
    expect(await footprint(t, w.org.id)).toEqual(before);
  });

  it(`takes at most ${GUEST_INCIDENTS_PER_HOUR} reports an hour from one address`, async () => {
    const ip = '10.77.1.1';
    for (let i = 0; i < GUEST_INCIDENTS_PER_HOUR; i += 1) {
      expect((await outer('/api/incidents/outer', guestBody(), ip)).statusCode).toBe(201);
    }
    const before = await footprint(t, w.org.id);
    const refused = await outer('/api/incidents/outer', guestBody(), ip, 'incguest', { 'accept-language': 'tr' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors[0]).toBe(translate('tr', 'errors.rate_limited'));
    expect(await footprint(t, w.org.id)).toEqual(before);
    // Another address is not held back.
    expect((await outer('/api/incidents/outer', guestBody(), '10.77.1.2')).statusCode).toBe(201);
  });
});

describe('a signed-in guest (a principal of its own kind)', () => {
  it('reports incidents and sees its own reports only, without the investigation’s people', async () => {
    const mine = await createIncident(t, guest, {
      ...report(w),
      investigation_required: false,
      victims: [victim({ osha: { injury_type: 'injury', days_away: 3 } })],
    });
    const o = await getIncident(t, guest, mine.id);
    // Staff decide on investigating and on OSHA facts; the guest's report gets neither from the guest.
    expect(o).toMatchObject({ source: 'guest', investigation_required: true, victims: [{ osha: null }] });
    const staff = await createIncident(t, w.people.reporter.s, report(w));
    await investigate(t, w, mine.id);
    expect((await call(t, guest, 'GET', `/api/incidents/${staff.id}`)).statusCode).toBe(404);
    const seen = await getIncident(t, guest, mine.id);
    expect(seen.investigation).toMatchObject({ lead: null, members: [], timeline: [], witnesses: [], factors: [], review: null });
    expect(seen.actions).toEqual([]);
    expect(seen.permissions).toMatchObject({ edit_report: false, edit_investigation: false, delete: false });
    const list = (await call(t, guest, 'GET', '/api/v2/incidents')).json() as IncidentListResponse;
    expect(list.incidents.map((i) => i.id)).toEqual([mine.id]);
    const counts = (await call(t, guest, 'GET', '/api/v2/incidents/period_status_counts')).json();
    expect(counts.counts.all).toBe(1);
    const data = (await call(t, guest, 'GET', '/api/incidents/incident_data')).json();
    expect(data.users).toEqual([]);
    // Everything else of the module is closed to a guest.
    expect((await call(t, guest, 'PATCH', `/api/v2/incidents/${mine.id}`, { shift: 'third' })).statusCode).toBe(403);
    expect((await call(t, guest, 'GET', `/api/incidents/${mine.id}/report.pdf`)).statusCode).toBe(403);
  });
});
