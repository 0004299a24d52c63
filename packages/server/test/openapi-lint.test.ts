import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.js';
import { ROOT, runNode, servedDocument, type OpenApiDoc } from './openapi-support.js';

/**
 * The served OpenAPI document under an independent linter: Redocly's recommended rules (run locally,
 * offline). No error may remain; a warning may come only from a rule that redocly.yaml lists as
 * deliberate, with its reason.
 */

let t: TestApp;
let served: Awaited<ReturnType<typeof servedDocument>>;
beforeAll(async () => {
  t = await createTestApp();
  served = await servedDocument(t);
});
afterAll(() => t.close());

type Problem = { ruleId: string; severity: 'error' | 'warn'; message: string; location: Array<{ pointer?: string }> };

/** Rules redocly.yaml sets to `warn`: the warnings that are deliberate. */
function deliberateWarnings(): Set<string> {
  const text = readFileSync(path.join(ROOT, 'redocly.yaml'), 'utf8');
  return new Set([...text.matchAll(/^ {2}([a-z0-9.-]+): warn\s*$/gm)].map((m) => m[1]!));
}

describe('the served OpenAPI document', () => {
  it('passes `redocly lint` with the recommended rules: no error, and only the warnings redocly.yaml explains', async () => {
    const run = await runNode('node_modules/@redocly/cli/bin/cli.js', [
      'lint',
      served.file,
      '--config',
      path.join(ROOT, 'redocly.yaml'),
      '--format=json',
      '--max-problems=10000',
    ]);
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as { problems: Problem[] };
    const say = (p: Problem) => `${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`;
    expect(report.problems.filter((p) => p.severity === 'error').map(say)).toEqual([]);
    const allowed = deliberateWarnings();
    expect(allowed.size).toBeGreaterThan(0);
    expect(report.problems.filter((p) => p.severity === 'warn' && !allowed.has(p.ruleId)).map(say)).toEqual([]);
    expect(run.code).toBe(0);
  }, 180_000);

  it('keeps the spec’s trailing slash on one path only (redocly.yaml lowers that rule for it alone)', () => {
    expect(Object.keys(served.doc.paths).filter((p) => p.endsWith('/'))).toEqual(['/api/actions/']);
  });

  it('declares the security of every operation: none for public routes, a bearer token otherwise, CSRF on writes with a sign-in token', () => {
    const doc: OpenApiDoc = served.doc;
    expect(Object.keys(doc.components.securitySchemes ?? {}).sort()).toEqual(['apiToken', 'csrf', 'session']);
    const byOperation = new Map<string, Array<Record<string, string[]>> | undefined>();
    for (const [, ops] of Object.entries(doc.paths))
      for (const [, op] of Object.entries(ops)) byOperation.set(op.operationId!, op.security);
    const problems: string[] = [];
    for (const r of t.app.registeredRoutes) {
      if (!r.contractId || r.method === 'HEAD') continue;
      const security = byOperation.get(r.contractId);
      const isPublic = 'public' in r.access;
      if (!security) problems.push(`${r.contractId}: no security`);
      else if (isPublic && security.length !== 0) problems.push(`${r.contractId}: public but asks for ${JSON.stringify(security)}`);
      else if (!isPublic) {
        const session = security.find((s) => 'session' in s);
        if (!session) problems.push(`${r.contractId}: no sign-in token`);
        if (r.method !== 'GET' && !session?.csrf) problems.push(`${r.contractId}: a write without CSRF`);
        if (r.method === 'GET' && session?.csrf) problems.push(`${r.contractId}: a read asking for CSRF`);
        const token = security.find((s) => 'apiToken' in s);
        const personOnly = 'admin' in r.access || 'platform' in r.access;
        if (personOnly === Boolean(token)) problems.push(`${r.contractId}: API token ${token ? 'offered' : 'missing'}`);
        if (token && 'csrf' in token) problems.push(`${r.contractId}: API token with CSRF`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names every module with a title of its own', () => {
    const tags = new Set(Object.values(served.doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? [])));
    expect(tags).toContain('SSO');
    expect(tags).toContain('Root-cause settings');
    expect(tags).toContain('API tokens');
    expect([...tags].filter((tag) => /^[a-z]|[-_]/.test(tag) && tag !== 'Root-cause settings')).toEqual([]);
  });
});
