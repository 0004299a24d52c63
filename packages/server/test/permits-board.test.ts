import type { Permit, PermitBoard } from '@bulwark/domain';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, createTestApp, signIn, type TestApp } from './helpers.js';
import {
  act,
  approved,
  createPermit,
  pdfText,
  permitWorld,
  requestBody,
  requested,
  siteHours,
  type PermitWorld,
} from './permits-support.js';

/**
 * Beyond the spec (issue 16): the live board of a site, its read-only board links (a public contract by
 * token: one site, revocable), the public status page of a printed permit's QR code (it reveals
 * nothing the paper does not), and the PDF.
 */
let t: TestApp;
let w: PermitWorld;
let now: Permit;
let soon: Permit;

beforeAll(async () => {
  t = await createTestApp();
  w = await permitWorld(t, 'ptwboard');
  // Live now, on the whole site (no area): started an hour ago.
  now = await approved(t, w, w.lifting, { site_node_id: null, start_at: siteHours(w.zone, -1), end_at: siteHours(w.zone, 5) });
  // Starting in an hour, in the boiler room, with both workers.
  soon = await approved(t, w, w.hotWork, { worker_ids: w.workers });
  // Not on the board: starting beyond 24 hours, still requested, revoked.
  await approved(t, w, w.lifting, { start_at: siteHours(w.zone, 30), end_at: siteHours(w.zone, 34) });
  await requested(t, w, w.lifting);
  await act(t, w.people.issuer.s, (await approved(t, w, w.lifting)).id, 'revoke', { comment: 'Stopped' });
});
afterAll(() => t?.close());

const numbers = (b: PermitBoard) => b.areas.map((a) => [a.area?.full_name ?? null, a.permits.map((p) => p.number)]);
const guest = (url: string, tenant = 'ptwboard') => call(t, null, 'GET', url, undefined, { 'x-tenant': tenant });

describe('the live board of a site', () => {
  it('shows what is live now and what starts within 24 hours, by area (the whole site first), for readers of permits', async () => {
    const res = await call(t, w.people.reader.s, 'GET', `/api/permit_board?site_id=${w.site}`);
    expect(res.statusCode, res.body).toBe(200);
    const board = res.json() as PermitBoard;
    expect(numbers(board)).toEqual([
      [null, [now.number]],
      ['Boiler house / Steam / Boiler room', [soon.number]],
    ]);
    const live = board.areas[0]!.permits[0]!;
    expect(live).toMatchObject({ id: now.id, type: 'Lifting', issuer: 'Ivan Issuer', status: 'approved', starts_in_seconds: 0 });
    expect(live.time_left_seconds).toBeGreaterThan(4 * 3600);
    expect(board.areas[1]!.permits[0]!).toMatchObject({ type: 'Hot work', workers: ['Will Welder', 'Finn Fitter'] });
    expect(board.areas[1]!.permits[0]!.starts_in_seconds).toBeGreaterThan(0);
    expect((await call(t, w.people.outsider.s, 'GET', `/api/permit_board?site_id=${w.site}`)).statusCode).toBe(403);
  });
});

describe('board links: read-only, one site, revocable', () => {
  it('an admin makes one; its screen reads the board by token, without ids; revoked, it is refused', async () => {
    expect((await call(t, w.people.issuer.s, 'POST', '/api/permit_board_links', { site_id: w.site, label: 'Gate house' })).statusCode).toBe(
      403,
    );
    const made = await call(t, w.people.admin.s, 'POST', '/api/permit_board_links', { site_id: w.site, label: 'Gate house' });
    expect(made.statusCode, made.body).toBe(201);
    const { token, url, link } = made.json() as { token: string; url: string; link: { id: string } };
    expect(url).toMatch(new RegExp(`/permit-board/live/${token}$`));

    const seen = await guest(`/api/permit_boards/${token}`);
    expect(seen.statusCode, seen.body).toBe(200);
    const board = seen.json() as PermitBoard;
    expect(numbers(board)).toEqual([
      [null, [now.number]],
      ['Boiler house / Steam / Boiler room', [soon.number]],
    ]);
    expect(board.areas.flatMap((a) => a.permits.map((p) => p.id))).toEqual([null, null]);
    const links = await call(t, w.people.admin.s, 'GET', '/api/permit_board_links');
    expect(links.json().links[0]).toMatchObject({ label: 'Gate house', revoked_at: null });
    expect(links.json().links[0].last_used_at).not.toBeNull();
    // Only the hash is kept.
    const { rows } = await t.deps.db.ownerPool.query('select token_hash from permit_board_links where id = $1', [link.id]);
    expect(rows[0].token_hash).not.toBe(token);

    // Another organisation's address does not know the token.
    await createOrg(t, 'ptwother');
    expect((await guest(`/api/permit_boards/${token}`, 'ptwother')).statusCode).toBe(404);

    expect((await call(t, w.people.admin.s, 'DELETE', `/api/permit_board_links/${link.id}`)).statusCode).toBe(200);
    expect((await guest(`/api/permit_boards/${token}`)).statusCode).toBe(404);
    expect((await guest(`/api/permit_boards/${'x'.repeat(43)}`)).statusCode).toBe(404);
  });
});

describe('the public status page of a printed permit', () => {
  const tokenOf = (p: Permit) => p.status_url!.split('/permit-status/')[1]!;

  it('answers the paper’s facts and whether it is valid now, and nothing more', async () => {
    const res = await guest(`/api/permit_status/${tokenOf(now)}`);
    expect(res.statusCode, res.body).toBe(200);
    const status = res.json();
    expect(Object.keys(status).sort()).toEqual(
      ['area_name', 'checked_at', 'number', 'site_name', 'status', 'time_zone', 'type', 'valid_from', 'valid_now', 'valid_until'].sort(),
    );
    expect(status).toMatchObject({
      number: now.number,
      type: 'Lifting',
      site_name: 'North Plant',
      area_name: null,
      status: 'approved',
      valid_now: true,
    });
    for (const secret of ['Will Welder', 'Rosa Requester', 'Ivan Issuer', 'Weld the feed pipe', now.id, 'requester@']) {
      expect(res.body).not.toContain(secret);
    }
    // Not started yet: issued, but not valid now.
    expect((await guest(`/api/permit_status/${tokenOf(soon)}`)).json()).toMatchObject({ status: 'approved', valid_now: false });
  });

  it('says so once the permit is revoked; a draft has no public status', async () => {
    const p = await approved(t, w, w.lifting, { start_at: siteHours(w.zone, -1), end_at: siteHours(w.zone, 3) });
    await act(t, w.people.issuer.s, p.id, 'revoke', { comment: 'Gas alarm' });
    expect((await guest(`/api/permit_status/${tokenOf(p)}`)).json()).toMatchObject({ status: 'revoked', valid_now: false });
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    expect(draft.status_url).toBeNull();
    const { rows } = await t.deps.db.ownerPool.query<{ status_token: string }>('select status_token from permits where id = $1', [
      draft.id,
    ]);
    expect((await guest(`/api/permit_status/${rows[0]!.status_token}`)).statusCode).toBe(404);
  });

  it('the printable permit carries the QR code of that address', async () => {
    const res = await call(t, w.people.reader.s, 'GET', `/api/permits_data/${now.id}/printable`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { status_url: string; qr_svg: string };
    expect(body.status_url).toBe(now.status_url);
    expect(body.status_url).toMatch(/^http:\/\/ptwboard\..+\/permit-status\/[A-Za-z0-9_-]{43}$/);
    expect(body.qr_svg).toBe(await QRCode.toString(body.status_url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 }));
  });
});

describe('the PDF', () => {
  it('prints the permit in the reader’s language with its people, answers and the QR caption', async () => {
    const res = await call(t, w.people.reader.s, 'GET', `/api/permits_data/${soon.id}/permit_report`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    for (const part of [
      `Permit to work ${soon.number}`,
      'Hot work',
      'Approved',
      'North Plant',
      'Boiler room',
      'Will Welder',
      'Finn Fitter',
      'W-001',
      'Rosa Requester',
      'Ivan Issuer',
      'Night Work Checklist',
      'Scan to check whether this permit is',
    ]) {
      expect(text, part).toContain(part);
    }
    const es = await call(t, w.people.reader.s, 'GET', `/api/permits_data/${soon.id}/permit_report`, undefined, {
      'accept-language': 'es',
    });
    expect(await pdfText(es.rawPayload)).toContain(`Permiso de trabajo ${soon.number}`);
  });

  it('is refused to whoever does not read permits; another organisation’s permit is not found', async () => {
    expect((await call(t, w.people.outsider.s, 'GET', `/api/permits_data/${soon.id}/permit_report`)).statusCode).toBe(403);
    const other = await createOrg(t, 'ptwpdf');
    const admin = await signIn(t, 'ptwpdf', other.adminEmail);
    expect((await call(t, admin, 'GET', `/api/permits_data/${soon.id}/permit_report`)).statusCode).toBe(404);
  });
});
