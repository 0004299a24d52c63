import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUSH_REQUESTS } from '@bulwark/domain';
import { pushRequestHandlers } from '../src/app.js';
import { registerRouteRecords } from '../src/platform/http/access.js';
import { createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('deny by default', () => {
  it('every registered API route declares its access', () => {
    const routes = t.app.registeredRoutes;
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) {
      const access = r.access as Record<string, unknown>;
      const declared =
        access.public === true ||
        access.session === true ||
        access.platform === true ||
        access.admin === true ||
        (typeof access.subject === 'string' && typeof access.action === 'string');
      expect(declared, `${r.method} ${r.url}`).toBe(true);
    }
  });

  it('refuses to register an API route that declares nothing', async () => {
    const app = Fastify();
    registerRouteRecords(app);
    expect(() => app.get('/api/v1/sneaky', async () => ({ secret: true }))).toThrow(/declares no access/);
    await app.close();
  });

  it('documents every API route in OpenAPI at /api/docs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    for (const r of t.app.registeredRoutes) {
      if (r.url.startsWith('/api/docs') || r.method === 'HEAD') continue;
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[r.method.toLowerCase()], `${r.method} ${r.url}`).toBeDefined();
    }
  });

  it('mounts every API route from an endpoint contract of packages/domain', () => {
    const byHand = t.app.registeredRoutes.filter((r) => !r.contractId && !r.url.startsWith('/api/docs')).map((r) => `${r.method} ${r.url}`);
    expect(byHand).toEqual([]);
    // One contract, one route (HEAD aside): an id is never mounted twice.
    const ids = t.app.registeredRoutes.filter((r) => r.contractId && r.method !== 'HEAD').map((r) => r.contractId);
    expect(ids.length).toBeGreaterThan(150);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents every operation from its contract: operation id, summary, tag, response schemas', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<
        string,
        Record<string, { operationId?: string; summary?: string; tags?: string[]; responses?: Record<string, unknown> }>
      >;
    };
    const problems: string[] = [];
    for (const r of t.app.registeredRoutes) {
      if (!r.contractId || r.method === 'HEAD') continue;
      const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      const name = `${r.method} ${r.url}`;
      if (op?.operationId !== r.contractId) problems.push(`${name}: operationId ${op?.operationId}`);
      if (!op?.summary) problems.push(`${name}: no summary`);
      if (!op?.tags?.length) problems.push(`${name}: no tag`);
      const responses = Object.entries(op?.responses ?? {});
      const success = responses.filter(([status]) => status.startsWith('2'));
      // A list whose export may run as a job (EndpointDef.exportJob) also documents its 202.
      const started = success.some(([status]) => status === '202') && success.length === 2;
      if (success.length !== 1 && !started) problems.push(`${name}: ${success.length} success responses`);
      for (const [status, response] of responses) {
        if (!JSON.stringify(response).includes('schema')) problems.push(`${name}: ${status} without a schema`);
      }
      if (!responses.some(([status]) => Number(status) >= 400)) problems.push(`${name}: no error response`);
    }
    expect(problems).toEqual([]);
  });

  it('lists exactly these public API routes (a new one must be added here on purpose)', () => {
    const publicRoutes = t.app.registeredRoutes
      .filter((r) => 'public' in r.access && !r.url.startsWith('/api/docs') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(publicRoutes).toEqual([
      'GET /api/guest_users/availability',
      'GET /api/incidents/out_incident_data',
      'GET /api/observations/outer_obs_data',
      'GET /api/permit_boards/:token',
      'GET /api/permit_status/:token',
      'GET /api/registrations/sub_domain_availability',
      'GET /api/sso/authorize',
      'GET /api/sso/callback',
      'GET /api/sso/status',
      'GET /api/v1/authorize',
      'GET /api/v1/organizations/lookup',
      'GET /api/v2/api_connection_checks',
      'POST /api/guest_users',
      'POST /api/incidents/outer',
      'POST /api/incidents/outer/attachments',
      'POST /api/observations/outer',
      'POST /api/observations/outer/attachments',
      'POST /api/organizations',
      'POST /api/registrations/:registration_id/resend',
      'POST /api/registrations/:registration_id/verify',
      'POST /api/sso/exchange',
      'POST /api/users/activate',
      'POST /api/v1/authorize',
      'POST /api/v1/password_resets',
      'POST /api/v1/password_resets/:token',
      'POST /api/v1/refresh_token',
      'POST /api/v1/reset_current_session',
    ]);
  });

  it('answers an unknown API path with the error shape, and other paths with the web app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found', errors: [expect.any(String)] });
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v2/api_connection_checks' });
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('leaves the headers only a document acts on to pages, the API documentation included', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/v2/api_connection_checks' });
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    for (const name of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control']) {
      expect(api.headers[name], name).toBeUndefined();
      expect(page.headers[name], name).toBeDefined();
      expect(docs.headers[name], name).toBeDefined();
    }
    expect(page.headers['content-security-policy']).toBe(api.headers['content-security-policy']);
  });
});

describe('push requests (spec 000 §7)', () => {
  it('every request the spec lists is answered by a module, none by the refusal fallback', () => {
    const handlers = pushRequestHandlers(t.deps);
    const unanswered = Object.keys(PUSH_REQUESTS).filter((k) => handlers[k as keyof typeof handlers].name === 'unanswered');
    expect(unanswered).toEqual([]);
  });
});
