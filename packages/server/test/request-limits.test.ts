import net from 'node:net';
import { translate } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyTrustProxy, loadConfig, parseTrustProxy } from '../src/platform/config.js';
import { MAX_JSON_DEPTH, jsonDeeperThan } from '../src/platform/http/json-body.js';
import { createOrg, listeningTestApp, nextIp, type TestApp } from './helpers.js';

/**
 * Issue 12, items 9 and 11: the client address behind a proxy cannot be chosen by the client, and a
 * request can neither take forever to arrive nor nest its JSON without end.
 */

let t: TestApp;
let url: string;
const BODY_TIMEOUT_MS = 400;

beforeAll(async () => {
  // Configured as an operator would: TRUST_PROXY=1 in the environment.
  const env = { DATABASE_URL: 'unused', APP_SECRET: 'x'.repeat(32), TRUST_PROXY: '1' };
  ({ t, url } = await listeningTestApp({ trustProxy: loadConfig(env).trustProxy, bodyTimeoutMs: BODY_TIMEOUT_MS }));
  await createOrg(t, 'limits');
});
afterAll(() => t?.close());

describe('TRUST_PROXY', () => {
  it('1 means one proxy: the client’s own X-Forwarded-For entries do not change its address', async () => {
    const statuses: number[] = [];
    // Password reset requests: 10 per address in 15 minutes.
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/password_resets',
        headers: { 'x-tenant': 'limits', 'x-forwarded-for': `10.7.${i}.1, 203.0.113.50` },
        payload: { email: `nobody${i}@limits.test` },
        // The load balancer, the one hop the setting trusts; it appended the address it saw.
        remoteAddress: '127.0.0.1',
      });
      statuses.push(res.statusCode);
    }
    // The left-most entry changed every time; the address the proxy saw did not.
    expect(statuses.slice(0, 10).includes(429)).toBe(false);
    expect(statuses[10]).toBe(429);
  });

  it('takes a hop count or proxy addresses and CIDR ranges, and refuses "true" and what is neither', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy(' 10.0.0.5, 10.1.0.0/16 ,fd00::/8,::1, loopback')).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
    expect(() => parseTrustProxy('true')).toThrow(/number of proxies/);
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseTrustProxy('proxy.internal')).toThrow(/proxy\.internal/);
    const oneHop = fastifyTrustProxy(1) as (address: string, hop: number) => boolean;
    expect([oneHop('127.0.0.1', 0), oneHop('203.0.113.50', 1)]).toEqual([true, false]);
  });
});

describe('request time limits', () => {
  it('the server bounds a whole request, its headers, idle connections and keep-alive', () => {
    const server = t.app.server;
    expect(server.requestTimeout).toBe(120_000);
    expect(server.headersTimeout).toBe(10_000);
    expect(server.timeout).toBe(60_000);
    expect(server.keepAliveTimeout).toBe(65_000);
  });

  it('a JSON body that trickles in is cut off with 408 in the API’s error shape, and the connection closes', async () => {
    const { port } = new URL(url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'POST /api/v1/authorize HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Tenant: limits\r\nAccept-Language: es\r\n' +
            'Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":"slow',
        );
        // The rest of the body never comes.
      });
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; errors: string[] };
    expect(body).toEqual({ code: 'request_timeout', errors: [translate('es', 'errors.request_timeout')] });
  });

  it('a JSON body sent at once is not affected', async () => {
    const res = await fetch(`${url}/api/v1/password_resets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': 'limits', 'x-forwarded-for': nextIp() },
      body: JSON.stringify({ email: 'someone@limits.test' }),
    });
    expect(res.status).toBe(200);
  });
});

describe('JSON nesting', () => {
  const nested = (depth: number) => `{"email":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)},"password":"x"}`;
  const send = (payload: string, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/authorize',
      headers: { 'x-tenant': 'limits', 'content-type': 'application/json', 'accept-language': lang },
      payload,
      remoteAddress: nextIp(),
    });

  it(`refuses more than ${MAX_JSON_DEPTH} levels with 400 before parsing, in the reader’s language`, async () => {
    for (const lang of ['en', 'tr']) {
      const res = await send(nested(MAX_JSON_DEPTH + 1), lang);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'bad_request',
        errors: [translate(lang as 'en' | 'tr', 'errors.jsonTooDeep', { max: MAX_JSON_DEPTH })],
      });
    }
    // 100,000 levels fit in the body limit: refused the same way, without a parser stack overflow.
    const deep = await send(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(deep.json().code).toBe('bad_request');
  });

  it(`lets ${MAX_JSON_DEPTH} levels through to the usual validation`, async () => {
    expect((await send(nested(MAX_JSON_DEPTH))).json().code).toBe('validation_failed');
  });

  it('counts brackets inside strings as text', () => {
    expect(jsonDeeperThan(JSON.stringify({ note: '['.repeat(100) }), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(JSON.stringify({ note: `\\"${'{'.repeat(100)}` }), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(`{"a":${'['.repeat(40)}`, MAX_JSON_DEPTH)).toBe(true);
  });

  it('still refuses prototype poisoning as before', async () => {
    const res = await send('{"email":"a@b.test","password":"x","__proto__":{"polluted":true}}');
    expect(res.statusCode).toBe(400);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
