import type { PushEvent } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { call, createOrg, listeningTestApp, signIn, type TestApp } from './helpers.js';
import { connectSocket, record, waitForItem } from './process-helpers.js';

/**
 * Fault: `POST /api/intro_tour_user_tracking` (spec 000 §7) was missing, so the web could not record
 * that a user has seen a guided tour. Each user's tours are recorded once and are theirs alone.
 */
let t: TestApp;
let url: string;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  ({ t, url } = await listeningTestApp());
  a = await createOrg(t, 'touralpha');
  b = await createOrg(t, 'tourbravo');
});
afterAll(() => t?.close());

const PATH = '/api/intro_tour_user_tracking';

async function owner<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: t.ownerUrl });
  await c.connect();
  try {
    return (await c.query<T>(text, values)).rows;
  } finally {
    await c.end();
  }
}
const rowsOf = (userId: string) =>
  owner<{ tour_key: string }>('select tour_key from tour_completions where user_id = $1 order by tour_key', [userId]);

describe('guided tours (POST/GET /api/intro_tour_user_tracking)', () => {
  it('records a tour once per user: sending it again keeps the first date and writes nothing', async () => {
    const s = await signIn(t, a.subDomain, a.userEmail);
    expect((await call(t, s, 'GET', PATH)).json()).toEqual({ tours: [] });

    const first = await call(t, s, 'POST', PATH, { tour_key: 'observation' });
    expect(first.statusCode, first.body).toBe(200);
    const { tours } = first.json() as { tours: Array<{ tour_key: string; completed_at: string }> };
    expect(tours).toEqual([{ tour_key: 'observation', completed_at: expect.any(String) }]);

    const again = await call(t, s, 'POST', PATH, { tour_key: 'observation' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ tours });
    expect(await rowsOf(a.userId)).toEqual([{ tour_key: 'observation' }]);

    await call(t, s, 'POST', PATH, { tour_key: 'incident' });
    expect((await call(t, s, 'GET', PATH)).json()).toMatchObject({
      tours: [{ tour_key: 'observation' }, { tour_key: 'incident' }],
    });
  });

  it('is each user’s own: a colleague and another organisation’s user have seen nothing', async () => {
    const colleague = await signIn(t, a.subDomain, a.adminEmail);
    expect((await call(t, colleague, 'GET', PATH)).json()).toEqual({ tours: [] });
    const stranger = await signIn(t, b.subDomain, b.userEmail);
    expect((await call(t, stranger, 'GET', PATH)).json()).toEqual({ tours: [] });
    expect(await rowsOf(b.userId)).toEqual([]);
  });

  it('refuses a tour that does not exist, in the reader’s language, and writes nothing', async () => {
    const s = await signIn(t, b.subDomain, b.adminEmail);
    const res = await call(t, s, 'POST', PATH, { tour_key: 'secret_tour' }, { 'accept-language': 'es' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { tour_key: expect.any(String) } });
    expect((res.json() as { errors: string[] }).errors[0]).not.toBe('validation.invalid');
    expect(await rowsOf(b.adminId)).toEqual([]);
    expect((await call(t, null, 'POST', PATH, { tour_key: 'observation' }, { 'x-tenant': b.subDomain })).statusCode).toBe(401);
  });

  it('still records a tour once the free trial has ended (it is the user’s own, not the organisation’s work)', async () => {
    await owner(`update organizations set trial_ends_at = now() - interval '1 day' where id = $1`, [b.id]);
    const s = await signIn(t, b.subDomain, b.userEmail);
    const res = await call(t, s, 'POST', PATH, { tour_key: 'workflow_settings' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rowsOf(b.userId)).toEqual([{ tour_key: 'workflow_settings' }]);
  });

  it('tells the user’s other tabs once, after the commit, when a tour is first seen', async () => {
    const s = await signIn(t, a.subDomain, a.userEmail);
    const socket = await connectSocket(url, { token: s.token, tenant: s.tenant });
    try {
      const events = record<PushEvent>(socket, 'tours');
      expect((await call(t, s, 'POST', PATH, { tour_key: 'permit_template' })).statusCode).toBe(200);
      await waitForItem(events, () => true, 'the tours event');
      // Seen again: no event. Barrier: a new tour's event, after which a second one would have come.
      await call(t, s, 'POST', PATH, { tour_key: 'permit_template' });
      await call(t, s, 'POST', PATH, { tour_key: 'request_permit' });
      await waitForItem(events, () => events.length >= 2, 'the second tours event');
      expect(events).toEqual([
        { channel: 'tours', change: 'created' },
        { channel: 'tours', change: 'created' },
      ]);
    } finally {
      socket.close();
    }
  });
});
