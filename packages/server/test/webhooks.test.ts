import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_RETRY_HOURS,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookDeliveriesResponse,
  type WebhookPayload,
  type WebhookSecretResponse,
} from '@bulwark/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressRefused, checkWebhookUrl, deliveryAddress, isPrivateAddress } from '../src/modules/webhooks/address.js';
import { deliverWebhook, WEBHOOK_QUEUE, WEBHOOK_RETRY, webhookJobHandler } from '../src/modules/webhooks/deliver.js';
import { signWebhook, verifyWebhook } from '../src/modules/webhooks/signature.js';
import { recordEvent } from '../src/modules/webhooks/events.js';
import { WEBHOOK_SOURCES } from '../src/modules/webhooks/sources.js';
import { startJobs } from '../src/platform/jobs/jobs.js';
import { AppError } from '../src/platform/errors.js';
import { twoOrganizations } from './fixtures.js';
import { call, type Session } from './helpers.js';
import { setUpOrganisation, siteTime, type Fixture } from './observations-support.js';
import { waitUntil } from './process-helpers.js';

/**
 * Webhooks (issue 19) end to end: a real HTTP receiver on 127.0.0.1 (WEBHOOKS_ALLOW_LOOPBACK lets the
 * app reach it), the real pg-boss queue, and the events the modules emit after their commits.
 */

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; payload: WebhookPayload };
const received: Received[] = [];
/** Status codes a path answers with, one per request; 200 once the list is used up. */
const script = new Map<string, number[]>();
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    received.push({ path, headers: req.headers, body, payload: JSON.parse(body) as WebhookPayload });
    const status = script.get(path)?.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(status === 200 ? `thanks from ${path}` : `broken at ${path}`);
  });
});
let base = '';

const world = twoOrganizations('wh', { webhooksAllowLoopback: true });
let fa: Fixture;
let fb: Fixture;

let pool: pg.Pool | undefined;
async function owner<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  pool ??= new pg.Pool({ connectionString: world.t.ownerUrl, max: 2 });
  return (await pool.query<T>(text, values)).rows;
}
afterAll(async () => {
  await pool?.end();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  fa = await setUpOrganisation(world.t, world.a.id, 'wha');
  fb = await setUpOrganisation(world.t, world.b.id, 'whb');
  // As runtime.ts wires it on a node with job workers: the real queue, the module's handler.
  world.t.deps.jobs = await startJobs(world.t.ownerUrl, { [WEBHOOK_QUEUE]: webhookJobHandler(world.t.deps) }, [], () => {});
}, 60_000);

afterAll(async () => {
  await world.t?.deps.jobs?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function observation(f: Fixture, over: Record<string, unknown> = {}) {
  return {
    type: 'unsafe_act',
    category_id: f.ppe,
    sub_category_id: f.gloves,
    description: 'Loose guard on press 2',
    site_id: f.tokyo,
    site_node_id: f.tokyoDivision,
    observed_at: siteTime('Asia/Tokyo', -30),
    risk_level: 'medium',
    action_required: false,
    comment: 'Seen on the walk',
    anonymous: false,
    attachment_ids: [],
    actions: [],
    ...over,
  };
}

async function report(s: Session, f: Fixture, over: Record<string, unknown> = {}): Promise<string> {
  const res = await call(world.t, s, 'POST', '/api/observations', observation(f, over));
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

async function endpoint(s: Session, path: string, events: string[]): Promise<WebhookSecretResponse> {
  const res = await call(world.t, s, 'POST', '/api/webhooks', { url: `${base}${path}`, events, description: path });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as WebhookSecretResponse;
}

async function deliveries(s: Session, id: string) {
  const res = await call(world.t, s, 'GET', `/api/webhooks/${id}/deliveries`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as WebhookDeliveriesResponse).deliveries;
}

const at = (path: string) => received.filter((r) => r.path === path);
const now = () => Math.floor(Date.now() / 1000);

describe('the signature', () => {
  const secret = 'whsec_test';
  const body = JSON.stringify({ id: 'e1', type: 'observation.created' });

  it('is HMAC-SHA256 of "<t>.<body>" under the endpoint’s secret, and verifies only the same body and secret', () => {
    const t = 1_800_000_000;
    const header = signWebhook(secret, body, t);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(secret, header, body, t)).toBe(true);
    expect(verifyWebhook(secret, header, `${body} `, t)).toBe(false);
    expect(verifyWebhook('whsec_other', header, body, t)).toBe(false);
    // The timestamp is signed: moving it breaks the signature.
    expect(verifyWebhook(secret, header.replace('t=1800000000', 't=1800000001'), body, t)).toBe(false);
    for (const bad of [undefined, '', 'v1=abc', 't=x,v1=abc', `t=${t}`, `t=${t},v1=`])
      expect(verifyWebhook(secret, bad, body, t)).toBe(false);
  });

  it('refuses a replay outside the tolerance window, either side of the receiver’s clock', () => {
    const t = 1_800_000_000;
    const header = signWebhook(secret, body, t);
    expect(verifyWebhook(secret, header, body, t + WEBHOOK_TOLERANCE_SECONDS)).toBe(true);
    expect(verifyWebhook(secret, header, body, t - WEBHOOK_TOLERANCE_SECONDS)).toBe(true);
    expect(verifyWebhook(secret, header, body, t + WEBHOOK_TOLERANCE_SECONDS + 1)).toBe(false);
    expect(verifyWebhook(secret, header, body, t - WEBHOOK_TOLERANCE_SECONDS - 1)).toBe(false);
    expect(verifyWebhook(secret, header, body, t + 86_400)).toBe(false);
    expect(verifyWebhook(secret, header, body, t + 30, 10)).toBe(false);
  });
});

describe('where a webhook may be sent (SSRF)', () => {
  const refusal = (url: string, loopback = false) => {
    try {
      checkWebhookUrl(url, loopback);
      return 'accepted';
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      return (err as AppError).options.fields?.url;
    }
  };

  it('takes only https:// addresses of the public internet when loopback is not allowed', () => {
    expect(refusal('https://hooks.example.com/bulwark')).toBe('accepted');
    expect(refusal('http://hooks.example.com/bulwark')).toBe('webhooks.validation.httpsOnly');
    expect(refusal('ftp://hooks.example.com/')).toBe('webhooks.validation.httpsOnly');
    expect(refusal('not a url')).toBe('webhooks.validation.badUrl');
    expect(refusal('https://user:pw@hooks.example.com/')).toBe('webhooks.validation.badUrl');
    for (const url of [
      'https://127.0.0.1/',
      'https://127.1.2.3:8443/',
      'https://localhost/',
      'https://LOCALHOST./',
      'https://app.localhost/',
      'https://0.0.0.0/',
      'https://10.0.0.5/',
      'https://172.16.3.4/',
      'https://192.168.1.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://100.64.0.1/',
      'https://[::1]/',
      'https://[::]/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/',
      'https://2130706433/',
      'https://0x7f000001/',
      'https://017700000001/',
    ]) {
      expect(refusal(url), url).toBe('webhooks.validation.privateAddress');
    }
  });

  it('lets http:// reach this machine’s loopback, and nothing else, when allowed', () => {
    expect(refusal('http://127.0.0.1:9999/hook', true)).toBe('accepted');
    expect(refusal('http://localhost:9999/hook', true)).toBe('accepted');
    expect(refusal('http://hooks.example.com/', true)).toBe('webhooks.validation.httpsOnly');
    expect(refusal('http://10.0.0.5/', true)).toBe('webhooks.validation.httpsOnly');
    expect(refusal('https://10.0.0.5/', true)).toBe('webhooks.validation.privateAddress');
    expect(refusal('https://169.254.169.254/', true)).toBe('webhooks.validation.privateAddress');
  });

  it('resolves the host at delivery and refuses any private answer', async () => {
    await expect(deliveryAddress(new URL('https://localhost/'), false)).rejects.toBeInstanceOf(AddressRefused);
    await expect(deliveryAddress(new URL('https://127.0.0.1/'), false)).rejects.toBeInstanceOf(AddressRefused);
    await expect(deliveryAddress(new URL('https://[::ffff:192.168.0.1]/'), true)).rejects.toBeInstanceOf(AddressRefused);
    expect(await deliveryAddress(new URL('http://127.0.0.1/'), true)).toEqual({ address: '127.0.0.1', family: 4 });
    expect(await deliveryAddress(new URL('https://93.184.216.34/'), false)).toEqual({ address: '93.184.216.34', family: 4 });
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2606:4700:4700::1111')).toBe(false);
    expect(isPrivateAddress('::ffff:7f00:1')).toBe(true);
  });

  it('is refused by the API when the server does not allow loopback, and a saved loopback address is never called', async () => {
    const config = world.t.deps.config;
    const saved = await endpoint(world.a.admin, '/ssrf', ['audit.created']);
    config.webhooksAllowLoopback = false;
    try {
      for (const url of [`${base}/x`, 'https://127.0.0.1/x', 'https://10.1.2.3/x', 'http://hooks.example.com/x']) {
        const res = await call(world.t, world.a.admin, 'POST', '/api/webhooks', { url, events: ['observation.created'] });
        expect(res.statusCode, url).toBe(400);
        expect((res.json() as { fields: Record<string, string> }).fields.url).toEqual(expect.any(String));
        const patch = await call(world.t, world.a.admin, 'PATCH', `/api/webhooks/${saved.endpoint.id}`, { url });
        expect(patch.statusCode, url).toBe(400);
      }
      // Saved while loopback was allowed, sent now that it is not: failed at once, nothing reaches the receiver.
      const test = await call(world.t, world.a.admin, 'POST', `/api/webhooks/${saved.endpoint.id}/test`);
      expect(test.statusCode, test.body).toBe(202);
      expect(test.json()).toMatchObject({ delivery: { status: 'failed', error: 'webhooks.errors.privateAddress', response_status: null } });
    } finally {
      config.webhooksAllowLoopback = true;
    }
    expect(at('/ssrf')).toHaveLength(0);
  });
});

describe('deliveries', () => {
  it('sends each chosen event of the organisation, signed with the endpoint’s secret, through the job queue', async () => {
    const hook = await endpoint(world.a.admin, '/a', ['observation.created', 'observation.updated', 'observation.status_changed']);
    expect(hook.secret).toMatch(/^whsec_/);
    // The secret is kept sealed, never in clear.
    const [row] = await owner<{ secret_enc: string }>('select secret_enc from webhook_endpoints where id = $1', [hook.endpoint.id]);
    expect(row!.secret_enc).not.toContain(hook.secret);
    expect(row!.secret_enc).not.toContain(hook.secret.slice(6));

    const id = await report(world.a.admin, fa);
    const created = await waitUntil('the created event', () => at('/a').find((r) => r.payload.data.id === id));
    expect(created.headers[WEBHOOK_EVENT_HEADER]).toBe('observation.created');
    expect(created.headers['content-type']).toBe('application/json');
    expect(verifyWebhook(hook.secret, created.headers[WEBHOOK_SIGNATURE_HEADER] as string, created.body, now())).toBe(true);
    expect(verifyWebhook('whsec_wrong', created.headers[WEBHOOK_SIGNATURE_HEADER] as string, created.body, now())).toBe(false);
    expect(created.payload).toMatchObject({
      type: 'observation.created',
      organization: 'wha',
      data: { id, status: 'open', path: `/api/observations/${id}` },
    });
    // It went through pg-boss, with the day-long retry policy.
    const [job] = await owner<{ state: string; retry_limit: number; retry_backoff: boolean }>(
      `select state, retry_limit, retry_backoff from pgboss.job where name = $1 and data->>'id' = $2`,
      [WEBHOOK_QUEUE, created.headers[WEBHOOK_DELIVERY_HEADER]],
    );
    expect(job).toMatchObject({ retry_limit: WEBHOOK_RETRY.retryLimit, retry_backoff: true });

    // Closing it is an update and a status change, each sent once, with the status it had.
    const close = await call(world.t, world.a.admin, 'PATCH', `/api/observations/${id}`, { close: { remarks: 'Guard refitted' } });
    expect(close.statusCode, close.body).toBe(200);
    const changed = await waitUntil('the status change', () =>
      at('/a').find((r) => r.payload.data.id === id && r.payload.type === 'observation.status_changed'),
    );
    expect(changed.payload.data).toMatchObject({ status: 'closed', previous_status: 'open' });
    expect(verifyWebhook(hook.secret, changed.headers[WEBHOOK_SIGNATURE_HEADER] as string, changed.body, now())).toBe(true);
    await waitUntil('the update', () => at('/a').find((r) => r.payload.data.id === id && r.payload.type === 'observation.updated'));

    // The list shows every delivery with the receiver's answer.
    const list = await waitUntil('three delivered', async () => {
      const d = await deliveries(world.a.admin, hook.endpoint.id);
      return d.length === 3 && d.every((x) => x.status === 'delivered') ? d : undefined;
    });
    for (const d of list) {
      expect(d).toMatchObject({ attempts: 1, response_status: 200, response_excerpt: 'thanks from /a', error: null });
      expect(d.delivered_at).not.toBeNull();
    }
    expect(new Set(list.map((d) => d.event))).toEqual(
      new Set(['observation.created', 'observation.updated', 'observation.status_changed']),
    );
  });

  it('never sends another organisation’s events to A’s endpoint, nor events A did not choose', async () => {
    const onlyCreated = await endpoint(world.a.admin, '/a-created', ['observation.created']);
    const bHook = await endpoint(world.b.admin, '/b', ['observation.created', 'observation.updated', 'observation.status_changed']);
    const [fromB, fromA] = await Promise.all([report(world.b.admin, fb), report(world.a.admin, fa)]);
    const [bGot] = await Promise.all([
      waitUntil('B’s event at B', () => at('/b').find((r) => r.payload.data.id === fromB)),
      waitUntil('A’s event at A', () => at('/a-created').find((r) => r.payload.data.id === fromA)),
      waitUntil('A’s event at /a', () => at('/a').find((r) => r.payload.data.id === fromA)),
    ]);
    expect(bGot.payload.organization).toBe('whb');
    expect(verifyWebhook(bHook.secret, bGot.headers[WEBHOOK_SIGNATURE_HEADER] as string, bGot.body, now())).toBe(true);
    // A's secret does not sign B's deliveries.
    expect(verifyWebhook(onlyCreated.secret, bGot.headers[WEBHOOK_SIGNATURE_HEADER] as string, bGot.body, now())).toBe(false);
    await new Promise((r) => setTimeout(r, 300));

    expect(at('/b').every((r) => r.payload.organization === 'whb')).toBe(true);
    expect(at('/b').some((r) => r.payload.data.id === fromA)).toBe(false);
    for (const path of ['/a', '/a-created']) {
      expect(
        at(path).every((r) => r.payload.organization === 'wha'),
        path,
      ).toBe(true);
      expect(
        at(path).some((r) => r.payload.data.id === fromB),
        path,
      ).toBe(false);
    }
    expect(at('/a-created').map((r) => r.payload.type)).toEqual(['observation.created']);
    // B's admin cannot read, test, change or remove A's endpoint.
    const id = onlyCreated.endpoint.id;
    expect((await call(world.t, world.b.admin, 'GET', `/api/webhooks/${id}/deliveries`)).statusCode).toBe(404);
    expect((await call(world.t, world.b.admin, 'POST', `/api/webhooks/${id}/test`)).statusCode).toBe(404);
    expect((await call(world.t, world.b.admin, 'POST', `/api/webhooks/${id}/rotate_secret`)).statusCode).toBe(404);
    expect((await call(world.t, world.b.admin, 'PATCH', `/api/webhooks/${id}`, { active: false })).statusCode).toBe(404);
    expect((await call(world.t, world.b.admin, 'DELETE', `/api/webhooks/${id}`)).statusCode).toBe(404);
    expect((await call(world.t, world.b.admin, 'GET', '/api/webhooks')).body).not.toContain(id);
  });

  it('announces a status change once, however many events of the record are heard together', async () => {
    const hook = await endpoint(world.a.admin, '/together', ['observation.status_changed']);
    const id = await report(world.a.admin, fa);
    // The record's status as the created event saw it.
    await waitUntil('the state', async () => (await owner('select 1 from webhook_record_states where record_id = $1', [id])).length > 0);
    await owner(`update observations set status = 'in_progress' where id = $1`, [id]);
    const source = WEBHOOK_SOURCES.observations!;
    const noJobs = { db: world.t.deps.db, jobs: null };
    // The record's state row held by another transaction, so that the four events are all under way at once.
    const holder = new pg.Client({ connectionString: world.t.ownerUrl });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select * from webhook_record_states where record_id = $1 for update', [id]);
    const heard = Promise.all([1, 2, 3, 4].map(() => recordEvent(noJobs, world.a.id, source, 'updated', id)));
    await new Promise((r) => setTimeout(r, 400));
    await holder.query('commit');
    await holder.end();
    await heard;
    const changes = await owner<{ payload: WebhookPayload }>('select payload from webhook_deliveries where endpoint_id = $1', [
      hook.endpoint.id,
    ]);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.payload.data).toMatchObject({ id, status: 'in_progress', previous_status: 'open' });
    // Every endpoint that listens heard the one change as one event.
    const events = await owner<{ event_id: string }>(
      `select distinct event_id from webhook_deliveries where event = 'observation.status_changed' and payload->'data'->>'id' = $1`,
      [id],
    );
    expect(events).toHaveLength(1);
  });

  it('sends nothing for a write that was rolled back', async () => {
    await endpoint(world.a.admin, '/rollback', ['observation.created']);
    // A check that fails only at commit: the handler ran and queued its after-commit work, the commit failed.
    await owner(`create function wh_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'refused at commit'; end $$`);
    await owner(`create constraint trigger wh_test_refuse after insert on observations deferrable initially deferred
      for each row when (new.description = 'Rolled back') execute function wh_test_refuse()`);
    try {
      const before = (await owner<{ n: number }>('select count(*)::int as n from webhook_deliveries'))[0]!.n;
      const res = await call(world.t, world.a.admin, 'POST', '/api/observations', observation(fa, { description: 'Rolled back' }));
      expect(res.statusCode).toBe(500);
      expect((await owner<{ n: number }>(`select count(*)::int as n from observations where description = 'Rolled back'`))[0]!.n).toBe(0);
      // A committed write after it is sent, so the pipeline was live all along.
      const ok = await report(world.a.admin, fa, { description: 'Committed' });
      await waitUntil('the committed one', () => at('/rollback').find((r) => r.payload.data.id === ok));
      await new Promise((r) => setTimeout(r, 500));
      expect(at('/rollback')).toHaveLength(1);
      const after = await owner<{ event: string; payload: WebhookPayload }>(
        'select event, payload from webhook_deliveries order by created_at offset $1',
        [before],
      );
      expect(after.every((d) => d.payload.data.id === ok)).toBe(true);
    } finally {
      await owner('drop trigger wh_test_refuse on observations');
      await owner('drop function wh_test_refuse()');
    }
  });

  it('retries a failed attempt with backoff, signing each afresh, until the receiver takes it', async () => {
    const hook = await endpoint(world.a.admin, '/flaky', ['observation.created']);
    script.set('/flaky', [500]);
    const id = await report(world.a.admin, fa);
    const first = await waitUntil('the first attempt', async () => {
      const d = await deliveries(world.a.admin, hook.endpoint.id);
      return d[0]?.attempts === 1 ? d[0] : undefined;
    });
    expect(first).toMatchObject({ status: 'pending', response_status: 500, response_excerpt: 'broken at /flaky', delivered_at: null });
    // pg-boss holds the job for a retry with backoff. It records the failure after our handler has
    // written the attempt, so the job may still be active for a moment.
    const job = await waitUntil('the job held for a retry', async () => {
      const [row] = await owner<{ state: string; wait: number }>(
        `select state, extract(epoch from start_after - now())::int as wait from pgboss.job where name = $1 and data->>'id' = $2`,
        [WEBHOOK_QUEUE, first.id],
      );
      return row?.state === 'active' ? undefined : row;
    });
    expect(job?.state).toBe('retry');
    expect(job!.wait).toBeGreaterThan(10);

    // The retry, a minute on (as pg-boss would run it), is accepted.
    const later = new Date(Date.now() + 60_000);
    expect(await deliverWebhook(world.t.deps, { organizationId: world.a.id, id: first.id }, later)).toBe('delivered');
    const tries = at('/flaky').filter((r) => r.payload.data.id === id);
    expect(tries).toHaveLength(2);
    expect(tries[0]!.headers[WEBHOOK_DELIVERY_HEADER]).toBe(tries[1]!.headers[WEBHOOK_DELIVERY_HEADER]);
    expect(tries[0]!.payload.id).toBe(tries[1]!.payload.id);
    expect(verifyWebhook(hook.secret, tries[0]!.headers[WEBHOOK_SIGNATURE_HEADER] as string, tries[0]!.body, now())).toBe(true);
    expect(
      verifyWebhook(hook.secret, tries[1]!.headers[WEBHOOK_SIGNATURE_HEADER] as string, tries[1]!.body, Math.floor(later.getTime() / 1000)),
    ).toBe(true);
    const [done] = await deliveries(world.a.admin, hook.endpoint.id);
    expect(done).toMatchObject({ status: 'delivered', attempts: 2, response_status: 200, response_excerpt: 'thanks from /flaky' });
    // Done is done: pg-boss's own retry later finds nothing to send.
    expect(await deliverWebhook(world.t.deps, { organizationId: world.a.id, id: first.id }, later)).toBe('skipped');
    expect(at('/flaky').filter((r) => r.payload.data.id === id)).toHaveLength(2);
  });

  it('keeps retrying for a day (pg-boss throws it back), then gives up', async () => {
    // The policy: the shortest backoff pg-boss may draw still spans the day.
    const { retryLimit = 0, retryDelay = 0, retryDelayMax = Infinity } = WEBHOOK_RETRY;
    let span = 0;
    for (let n = 1; n <= retryLimit; n += 1) span += Math.min(retryDelayMax, (retryDelay * 2 ** Math.min(16, n)) / 2);
    expect(span).toBeGreaterThan(WEBHOOK_RETRY_HOURS * 3600);

    const hook = await endpoint(world.a.admin, '/down', ['audit.created']);
    script.set(
      '/down',
      Array.from({ length: 10 }, () => 503),
    );
    const test = await call(world.t, world.a.admin, 'POST', `/api/webhooks/${hook.endpoint.id}/test`);
    expect(test.statusCode).toBe(202);
    const delivery = (test.json() as { delivery: { id: string; status: string; response_status: number } }).delivery;
    expect(delivery).toMatchObject({ status: 'pending', response_status: 503 });
    // The job handler throws, so that pg-boss tries again on its backoff.
    await expect(webhookJobHandler(world.t.deps)({ organizationId: world.a.id, id: delivery.id })).rejects.toThrow();
    const hours = (h: number) => new Date(Date.now() + h * 3_600_000);
    expect(await deliverWebhook(world.t.deps, { organizationId: world.a.id, id: delivery.id }, hours(23))).toBe('retry');
    const sent = at('/down').length;
    expect(await deliverWebhook(world.t.deps, { organizationId: world.a.id, id: delivery.id }, hours(WEBHOOK_RETRY_HOURS + 1))).toBe(
      'failed',
    );
    expect(at('/down')).toHaveLength(sent);
    const [gaveUp] = await deliveries(world.a.admin, hook.endpoint.id);
    expect(gaveUp).toMatchObject({ status: 'failed', attempts: 3, error: 'webhooks.errors.gaveUp', response_status: 503 });
  });

  it('sends a signed ping on "send test" and answers with the receiver’s reply', async () => {
    const hook = await endpoint(world.a.admin, '/ping', ['incident.created']);
    const res = await call(world.t, world.a.admin, 'POST', `/api/webhooks/${hook.endpoint.id}/test`);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ delivery: { event: 'ping', status: 'delivered', attempts: 1, response_status: 200 } });
    const [ping] = at('/ping');
    expect(ping!.payload).toMatchObject({ type: 'ping', organization: 'wha', data: { id: hook.endpoint.id } });
    expect(verifyWebhook(hook.secret, ping!.headers[WEBHOOK_SIGNATURE_HEADER] as string, ping!.body, now())).toBe(true);

    // A new secret signs from then on; the old one no longer verifies.
    const rotated = await call(world.t, world.a.admin, 'POST', `/api/webhooks/${hook.endpoint.id}/rotate_secret`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const secret = (rotated.json() as WebhookSecretResponse).secret;
    expect(secret).not.toBe(hook.secret);
    await call(world.t, world.a.admin, 'POST', `/api/webhooks/${hook.endpoint.id}/test`);
    const second = at('/ping')[1]!;
    expect(verifyWebhook(secret, second.headers[WEBHOOK_SIGNATURE_HEADER] as string, second.body, now())).toBe(true);
    expect(verifyWebhook(hook.secret, second.headers[WEBHOOK_SIGNATURE_HEADER] as string, second.body, now())).toBe(false);

    // Paused, nothing is sent; removed, its deliveries go with it.
    await call(world.t, world.a.admin, 'PATCH', `/api/webhooks/${hook.endpoint.id}`, { active: false });
    const paused = await call(world.t, world.a.admin, 'POST', `/api/webhooks/${hook.endpoint.id}/test`);
    expect(paused.json()).toMatchObject({ delivery: { status: 'failed' } });
    expect(at('/ping')).toHaveLength(2);
    expect((await call(world.t, world.a.admin, 'DELETE', `/api/webhooks/${hook.endpoint.id}`)).statusCode).toBe(200);
    expect((await call(world.t, world.a.admin, 'GET', `/api/webhooks/${hook.endpoint.id}/deliveries`)).statusCode).toBe(404);
    expect((await owner('select 1 from webhook_deliveries where endpoint_id = $1', [hook.endpoint.id])).length).toBe(0);
  });
});

describe('administration', () => {
  it('is for the organisation’s admins only', async () => {
    const hook = await endpoint(world.a.admin, '/admin-only', ['permit.created']);
    const user = world.a.user;
    expect((await call(world.t, user, 'GET', '/api/webhooks')).statusCode).toBe(403);
    expect((await call(world.t, user, 'POST', '/api/webhooks', { url: `${base}/mine`, events: ['audit.created'] })).statusCode).toBe(403);
    expect((await call(world.t, user, 'POST', `/api/webhooks/${hook.endpoint.id}/test`)).statusCode).toBe(403);
    expect((await call(world.t, user, 'GET', `/api/webhooks/${hook.endpoint.id}/deliveries`)).statusCode).toBe(403);
    expect((await call(world.t, user, 'DELETE', `/api/webhooks/${hook.endpoint.id}`)).statusCode).toBe(403);
  });

  it('offers every subject × change, refuses unknown events, and never lists the secret', async () => {
    const res = await call(world.t, world.a.admin, 'GET', '/api/webhooks');
    expect(res.statusCode).toBe(200);
    const { events } = res.json() as { events: string[] };
    for (const s of ['observation', 'incident', 'action', 'permit', 'audit'])
      for (const c of ['created', 'updated', 'status_changed']) expect(events).toContain(`${s}.${c}`);
    expect(res.body).not.toMatch(/whsec_/);
    const bad = await call(world.t, world.a.admin, 'POST', '/api/webhooks', { url: `${base}/x`, events: ['observation.deleted'] });
    expect(bad.statusCode).toBe(400);
    const none = await call(world.t, world.a.admin, 'POST', '/api/webhooks', { url: `${base}/x`, events: [] });
    expect(none.statusCode).toBe(400);
  });

  it('reads each source’s status from a table that has one, and points receivers at a mounted route', async () => {
    for (const [channel, source] of Object.entries(WEBHOOK_SOURCES)) {
      const columns = (
        await owner<{ column_name: string }>(
          `select column_name from information_schema.columns where table_schema = 'public' and table_name = $1`,
          [source!.table],
        )
      ).map((c) => c.column_name);
      expect(columns, channel).toEqual(expect.arrayContaining(['id', 'status', 'organization_id']));
      expect(world.t.app.hasRoute({ method: 'GET', url: source!.path.replace('{id}', ':id') }), source!.path).toBe(true);
    }
  });
});

describe('an organisation without webhooks', () => {
  it('pays one statement per event, no transaction; an endpoint it adds hears the very next event, a paused one nothing', async () => {
    const source = WEBHOOK_SOURCES.audits!;
    const noJobs = { db: world.t.deps.db, jobs: null };
    const seen: string[] = [];
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const first = args[0] as string | { text?: string };
      seen.push(typeof first === 'string' ? first : (first?.text ?? '?'));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof pg.Client.prototype.query;
    try {
      expect(await recordEvent(noJobs, world.b.id, source, 'created', randomUUID())).toEqual([]);
    } finally {
      pg.Client.prototype.query = original;
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/webhook_endpoints/);

    // Another organisation's endpoint is not B's.
    const other = await endpoint(world.a.admin, '/audits-a', ['audit.created']);
    expect(await recordEvent(noJobs, world.b.id, source, 'created', randomUUID())).toEqual([]);
    const hook = await endpoint(world.b.admin, '/audits-b', ['audit.created']);
    try {
      expect(await recordEvent(noJobs, world.b.id, source, 'created', randomUUID())).toHaveLength(1);
      // Listening to the subject, but not to this change: the transaction finds nothing to send.
      expect(await recordEvent(noJobs, world.b.id, source, 'updated', randomUUID())).toEqual([]);
      const paused = await call(world.t, world.b.admin, 'PATCH', `/api/webhooks/${hook.endpoint.id}`, { active: false });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(await recordEvent(noJobs, world.b.id, source, 'created', randomUUID())).toEqual([]);
    } finally {
      await call(world.t, world.b.admin, 'DELETE', `/api/webhooks/${hook.endpoint.id}`);
      await call(world.t, world.a.admin, 'DELETE', `/api/webhooks/${other.endpoint.id}`);
    }
  });
});
