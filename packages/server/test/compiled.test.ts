import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverPath, serverRoot } from '../src/platform/server-root.js';
import { emptyDatabase, freePort, REPO_ROOT, run, startChild, stopChild, waitUntil, type Child } from './process-helpers.js';

// `npm start` runs the server compiled by packages/server/build.mjs (one bundle in dist/), not its
// TypeScript sources: the files it reads at run time (migrations, the password list, the web build) must
// be found from there too. Built into a folder of its own, so a running `npm start` is left alone.
const outdir = serverPath('dist', `test-${process.pid}`);
let database: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
let server: Child | undefined;

beforeAll(async () => {
  database = await emptyDatabase();
  const built = await run(
    process.execPath,
    ['packages/server/build.mjs', outdir],
    { PATH: process.env.PATH, HOME: process.env.HOME },
    120_000,
  );
  expect(built, built.stderr).toMatchObject({ code: 0 });
}, 180_000);
afterAll(async () => {
  await stopChild(server);
  await database?.drop();
  rmSync(outdir, { recursive: true, force: true });
});

describe('the compiled server (npm start)', () => {
  it('finds the server package from its sources', () => {
    expect(serverRoot).toBe(path.join(REPO_ROOT, 'packages', 'server'));
  });

  it('starts from dist/main.js with source maps, migrates, and serves', async () => {
    expect(existsSync(path.join(outdir, 'main.js.map'))).toBe(true);
    const port = await freePort();
    server = startChild(['--enable-source-maps', path.join(outdir, 'main.js')], {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: database!.ownerUrl,
      APP_SECRET: 'compiled-test-secret-0123456789-0123456789',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JOBS: '0',
      DRAIN_SECONDS: '0',
    });
    await waitUntil(
      'the compiled server to answer /healthz',
      async () => {
        if (server!.proc.exitCode !== null) throw new Error(`the server exited:\n${server!.output()}`);
        const res = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
        return res?.status === 200;
      },
      90_000,
      250,
    );
    expect(server.output()).toContain('Bulwark EHS is running.');

    // Every committed migration was found and applied.
    const client = new pg.Client({ connectionString: database!.ownerUrl });
    await client.connect();
    const applied = (await client.query<{ name: string }>('select name from schema_migrations order by name')).rows.map((r) => r.name);
    await client.end();
    const committed = readdirSync(serverPath('migrations'))
      .filter((f) => f.endsWith('.sql'))
      .sort();
    expect(applied).toEqual(committed);

    // The web build (when there is one: `npm test` makes it) is served from packages/web/dist.
    const page = await fetch(`http://127.0.0.1:${port}/`);
    if (existsSync(path.join(REPO_ROOT, 'packages/web/dist/index.html'))) {
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root"');
    } else {
      expect(await page.text()).toContain('The web app is not built');
    }
    await stopChild(server);
  }, 180_000);
});
