import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, listeningTestApp, PASSWORD, type TestApp } from './helpers.js';
import { setUpOrganisation, siteTime, type Fixture } from './observations-support.js';
import { runNode, servedDocument, writeIn } from './openapi-support.js';

/**
 * A TypeScript client generated from the served document with a kept generator (@hey-api/openapi-ts,
 * offline) compiles under `strict`, and works against the real server: sign in, create an observation,
 * list the observations.
 */

let t: TestApp;
let url: string;
let fa: Fixture;
const SUB = 'clientco';

beforeAll(async () => {
  ({ t, url } = await listeningTestApp());
  const org = await createOrg(t, SUB);
  fa = await setUpOrganisation(t, org.id, SUB);
});
afterAll(() => t.close());

/** What an integrator writes with the generated client: every call typed by the document. */
const USAGE = `
import { createClient, createConfig } from './client/client';
import { observationsCreate, observationsList, sessionSignIn, type ObservationsCreateData } from './client';

export type Input = { baseUrl: string; tenant: string; email: string; password: string; siteId: string; observedAt: string };

export async function run(input: Input): Promise<{ created: string; serial: string; listed: string[]; total: number }> {
  let token: string | undefined;
  let csrf: string | undefined;
  const client = createClient(
    createConfig({
      baseUrl: input.baseUrl,
      headers: { 'X-Tenant': input.tenant },
      // The document's security: the sign-in token as bearer, and the CSRF header on writes.
      auth: (scheme) => (scheme.name === 'X-CSRF-Token' ? csrf : token),
    }),
  );
  const signedIn = await sessionSignIn({ client, body: { email: input.email, password: input.password }, throwOnError: true });
  token = signedIn.data.token;
  csrf = signedIn.data.csrf;
  const body: ObservationsCreateData['body'] = {
    type: 'unsafe_condition',
    description: 'Oil on the floor by press 4',
    site_id: input.siteId,
    observed_at: input.observedAt,
    risk_level: 'medium',
    comment: 'Cordoned off and cleaned.',
    action_required: false,
    anonymous: false,
  };
  const created = await observationsCreate({ client, body, throwOnError: true });
  const listed = await observationsList({ client, query: { per_page: 50 }, throwOnError: true });
  // The list's contract also documents the 202 of a large Excel export; a page is the answer with rows.
  if (!('observations' in listed.data)) throw new Error('expected a page of observations');
  return {
    created: created.data.id,
    serial: created.data.serial_label,
    listed: listed.data.observations.map((o) => o.id),
    total: listed.data.pagination.total,
  };
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    noUncheckedIndexedAccess: true,
  },
  include: ['client/**/*.ts', 'usage.ts'],
};

describe('a client generated from the OpenAPI document', () => {
  it('is generated, compiles, signs in, creates an observation and lists it', async () => {
    const { dir, file } = await servedDocument(t);
    const generated = await runNode('node_modules/@hey-api/openapi-ts/bin/run.js', ['-i', file, '-o', path.join(dir, 'client')]);
    expect(generated.code, generated.stderr + generated.stdout).toBe(0);

    writeIn(dir, 'usage.ts', USAGE);
    writeIn(dir, 'tsconfig.json', JSON.stringify(TSCONFIG));
    const compiled = await runNode('node_modules/typescript/bin/tsc', ['-p', path.join(dir, 'tsconfig.json')]);
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);

    const usage = (await import(pathToFileURL(path.join(dir, 'usage.ts')).href)) as {
      run: (i: Record<string, string>) => Promise<{ created: string; serial: string; listed: string[]; total: number }>;
    };
    const result = await usage.run({
      baseUrl: url,
      tenant: SUB,
      email: `manager@${SUB}.test`,
      password: PASSWORD,
      siteId: fa.tokyo,
      observedAt: siteTime('Asia/Tokyo', -20),
    });
    expect(result.serial).toMatch(/^OBS-\d{6}$/);
    expect(result.listed).toContain(result.created);
    expect(result.total).toBe(1);
  }, 240_000);
});
