import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from './helpers.js';
import {
  act,
  approved,
  createPermit,
  getPermit,
  permitWorld,
  requestBody,
  requested,
  siteHours,
  type PermitWorld,
} from './permits-support.js';

/**
 * The clash warning (issue 16): a permit requested for an area and time in which a live permit of a
 * conflicting type exists (the organisation marked hot work against confined space, and hot work
 * against itself) carries the clashes in the request's and the approver's answers. It warns; it does
 * not block.
 */
let t: TestApp;
let w: PermitWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await permitWorld(t, 'ptwclash');
});
afterAll(() => t?.close());

describe('clashes', () => {
  it('a confined-space entry in the boiler room while hot work is issued there: the requester and the approver see it', async () => {
    const hot = await approved(t, w, w.hotWork);
    const entry = await requested(t, w, w.confined);
    expect(entry.clashes).toEqual([
      {
        permit_id: hot.id,
        number: hot.number,
        template: { id: w.hotWork, name: 'Hot work' },
        status: 'approved',
        area_name: 'Boiler house / Steam / Boiler room',
        start_at: hot.start_at,
        end_at: hot.end_at,
      },
    ]);
    // The approver sees it before deciding, and in the answer of the approval.
    expect((await getPermit(t, w.people.issuer.s, entry.id)).clashes.map((c) => c.number)).toEqual([hot.number]);
    const decided = await act(t, w.people.issuer.s, entry.id, 'approve');
    expect(decided.status).toBe('approved');
    expect(decided.clashes.map((c) => c.number)).toEqual([hot.number]);
    // Both ways: the hot work now clashes with the entry.
    expect((await getPermit(t, w.people.reader.s, hot.id)).clashes.map((c) => c.number)).toEqual([entry.number]);
  });

  it('an area clashes with what contains it (the whole division, the whole site), not with a sibling area', async () => {
    const hot = await approved(t, w, w.hotWork, { start_at: siteHours(w.zone, 40), end_at: siteHours(w.zone, 44) });
    const division = await requested(t, w, w.confined, {
      site_node_id: w.boilerHouse,
      start_at: siteHours(w.zone, 41),
      end_at: siteHours(w.zone, 42),
    });
    const site = await requested(t, w, w.confined, { site_node_id: null, start_at: siteHours(w.zone, 41), end_at: siteHours(w.zone, 42) });
    const yard = await requested(t, w, w.confined, {
      site_node_id: w.yard,
      start_at: siteHours(w.zone, 41),
      end_at: siteHours(w.zone, 42),
    });
    expect(division.clashes.map((c) => c.number)).toContain(hot.number);
    expect(site.clashes.map((c) => c.number)).toContain(hot.number);
    expect(yard.clashes.map((c) => c.number)).not.toContain(hot.number);
  });

  it('no clash with a type that does not conflict, at another time, or with a permit that has ended its work', async () => {
    const hot = await approved(t, w, w.hotWork, { start_at: siteHours(w.zone, 60), end_at: siteHours(w.zone, 64) });
    const lifting = await requested(t, w, w.lifting, { start_at: siteHours(w.zone, 61), end_at: siteHours(w.zone, 62) });
    expect(lifting.clashes).toEqual([]);
    const later = await requested(t, w, w.confined, { start_at: siteHours(w.zone, 64), end_at: siteHours(w.zone, 66) });
    expect(later.clashes.map((c) => c.number)).not.toContain(hot.number);
    await act(t, w.people.issuer.s, hot.id, 'revoke', { comment: 'Cancelled' });
    const after = await requested(t, w, w.confined, { start_at: siteHours(w.zone, 61), end_at: siteHours(w.zone, 62) });
    expect(after.clashes.map((c) => c.number)).not.toContain(hot.number);
  });

  it('a template conflicting with itself: two hot works in one area', async () => {
    const first = await approved(t, w, w.hotWork, { start_at: siteHours(w.zone, 80), end_at: siteHours(w.zone, 84) });
    const draft = await createPermit(
      t,
      w.people.requester.s,
      await requestBody(t, w, w.hotWork, { start_at: siteHours(w.zone, 81), end_at: siteHours(w.zone, 82) }),
    );
    // The requester sees it on the draft already, before sending it.
    expect(draft.clashes.map((c) => c.number)).toEqual([first.number]);
  });

  it('the conflicting types are the organisation’s own, kept both ways', async () => {
    const res = await call(t, w.people.admin.s, 'GET', `/api/permits/${w.confined}`);
    expect(res.json().template.conflict_template_ids).toEqual([w.hotWork]);
    const hot = await call(t, w.people.admin.s, 'GET', `/api/permits/${w.hotWork}`);
    expect(hot.json().template.conflict_template_ids).toEqual([w.confined, w.hotWork].sort());
  });
});
