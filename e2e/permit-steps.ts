import jsQR from 'jsqr';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningServer } from './support.js';

/** What the permit journey sets up and reads outside the browser: the API as an admin would use it, the clock, the PDF's QR code. */

export const PASSWORD = 'Demo#2026!';

/** The API as the web calls it, signed in as `email` (for the setup an administrator would do on other screens). */
export async function apiAs(server: RunningServer, email: string) {
  const base = `http://127.0.0.1:${server.port}`;
  const tenant = { 'x-tenant': 'demo', 'content-type': 'application/json' };
  const res = await fetch(`${base}/api/v1/authorize`, {
    method: 'POST',
    headers: tenant,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const s = (await res.json()) as { token: string; csrf: string };
  const headers = { ...tenant, authorization: `Bearer ${s.token}`, 'x-csrf-token': s.csrf };
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const r = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    expect(r.ok, `${method} ${path}: ${r.status} ${text}`).toBe(true);
    return (text ? JSON.parse(text) : {}) as T;
  };
}

type Role = { id: string; name: string };
type Rights = Partial<
  Record<'r_add' | 'r_edit' | 'r_view' | 'r_destroy' | 'is_revoke' | 'is_extend' | 'is_close' | 'is_reject' | 'is_approve', boolean>
>;

/**
 * What an administrator sets up beforehand, through the API: Aisha Bello's role may read and decide
 * permits; the permit approval workflow asks Aisha, then Dana, in sequence; Tomasz's role may read
 * the permit templates (the type choice lists them: see the report, the list asks for that right);
 * one worker profile exists already.
 */
export async function setUpPermits(server: RunningServer) {
  const admin = await apiAs(server, 'admin@demo.test');
  const roles = (await admin<{ roles: Role[] }>('GET', '/api/roles')).roles;
  const role = (name: string) => roles.find((r) => r.name === name)!.id;
  const grant = (name: string, rows: Array<{ name: string } & Rights>) =>
    admin('PATCH', `/api/roles/${role(name)}`, { role_actions_attributes: rows });
  await grant('Safety observer', [
    { name: 'Observation', r_view: true },
    { name: 'Incident', r_view: true },
    { name: 'Permit', r_view: true, is_approve: true, is_reject: true },
  ]);
  await grant('Site supervisor', [{ name: 'Permit Form Setting', r_view: true }]);

  const list = await admin<{ workflows: { id: string }[] }>('GET', '/api/workflows?module=permits');
  const options = await admin<{ users: { id: string; email: string }[] }>('GET', '/api/workflows/options');
  const id = (mail: string) => options.users.find((u) => u.email === mail)!.id;
  await admin('PATCH', `/api/workflows/${list.workflows[0]!.id}`, {
    type: 'sequential',
    reviewer_ids: [id('aisha.bello@demo.test'), id('admin@demo.test')],
    escalation_user_id: null,
  });

  const tomasz = await apiAs(server, 'tomasz.kowalski@demo.test');
  await tomasz('POST', '/api/work_profiles', {
    name: 'Wojciech Nowak',
    id_number: 'WN-4410',
    phone: '+44 20 7946 0321',
    gender: 'male',
    age: 41,
  });
}

/**
 * The work time of a permit ends: its whole window moves back so that it ended a minute ago (the
 * clock, as far as the permit is concerned), then the hourly job is queued on pg-boss, where the
 * server's own worker runs it as it would on the hour.
 */
export async function endWorkTime(server: RunningServer, permitId: string) {
  const c = new pg.Client({ connectionString: server.ownerUrl });
  await c.connect();
  try {
    const moved = await c.query(
      `update permits set
         start_at = start_at - shift, start_local = start_local - shift,
         end_at = end_at - shift, end_local = end_local - shift
       from (select end_at - now() + interval '1 minute' as shift from permits where id = $1) s
       where id = $1`,
      [permitId],
    );
    expect(moved.rowCount).toBe(1);
  } finally {
    await c.end();
  }
  const boss = new PgBoss({ connectionString: server.ownerUrl, supervise: false, schedule: false });
  await boss.start();
  try {
    await boss.send('permits-time-sweep', {});
  } finally {
    await boss.stop({ graceful: true, timeout: 5_000 });
  }
}

/** The address a PDF's QR code holds: its first image, decoded as pdfjs (the browsers' engine) reads it. */
export async function qrOfPdf(bytes: Buffer): Promise<string | null> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const page = await doc.getPage(1);
    const ops = await page.getOperatorList();
    for (let i = 0; i < ops.fnArray.length; i += 1) {
      if (ops.fnArray[i] !== pdfjs.OPS.paintImageXObject) continue;
      const name = (ops.argsArray[i] as [string])[0];
      const img = await new Promise<{ width: number; height: number; data: Uint8ClampedArray; kind: number }>((resolve) =>
        page.objs.get(name, resolve as (data: unknown) => void),
      );
      const rgba = toRgba(img);
      const code = jsQR(rgba, img.width, img.height);
      if (code) return code.data;
    }
    return null;
  } finally {
    await doc.destroy();
  }
}

/** pdfjs image kinds: 1 one bit per pixel, 2 RGB, 3 RGBA. */
function toRgba(img: { width: number; height: number; data: Uint8ClampedArray; kind: number }): Uint8ClampedArray {
  const n = img.width * img.height;
  if (img.kind === 3) return img.data;
  const out = new Uint8ClampedArray(n * 4);
  for (let p = 0; p < n; p += 1) {
    let v: [number, number, number];
    if (img.kind === 2) v = [img.data[p * 3]!, img.data[p * 3 + 1]!, img.data[p * 3 + 2]!];
    else {
      const rowBytes = Math.ceil(img.width / 8);
      const x = p % img.width;
      const y = Math.floor(p / img.width);
      const bit = (img.data[y * rowBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
      v = bit ? [255, 255, 255] : [0, 0, 0];
    }
    out.set([...v, 255], p * 4);
  }
  return out;
}

/** The QR code shown on a page (an <img data-qr>), decoded in the browser. */
export async function qrOnPage(page: Page): Promise<string | null> {
  const pixels = await page.locator('img[data-qr]').evaluate(async (img: HTMLImageElement) => {
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = 400;
    canvas.height = 400;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 400, 400);
    ctx.drawImage(img, 20, 20, 360, 360);
    return Array.from(ctx.getImageData(0, 0, 400, 400).data);
  });
  return jsQR(new Uint8ClampedArray(pixels), 400, 400)?.data ?? null;
}

/** The address of the page, without the origin. */
export const pathOf = (page: Page) => new URL(page.url()).pathname;
