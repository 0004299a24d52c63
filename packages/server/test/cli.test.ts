import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type TestApp } from './helpers.js';
import { appOnDatabase, emptyDatabase, freePort, run, startChild, stopChild, waitUntil, type Child } from './process-helpers.js';
import { compiledServer, serverArgs } from './compiled-server.js';

const STRONG = 'Str0ng#pass';
let database: Awaited<ReturnType<typeof emptyDatabase>>;
let dataDir: string;
let t: TestApp | undefined;

beforeAll(async () => {
  database = await emptyDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'bulwark-cli-'));
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: database.ownerUrl,
    APP_SECRET: 'cli-test-secret-0123456789-0123456789',
    DATA_DIR: dataDir,
  };
}

/** The compiled CLI (packages/server/dist/cli.js), as a production install runs it; `npm run ehs` is tried once below. */
const cli = (...args: string[]) => ['--enable-source-maps', compiledServer().cli, ...args];
const ehs = (...args: string[]) => run(process.execPath, cli(...args), env());

async function owner<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.ownerUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The real app on the CLI's database, to prove the accounts it made can sign in. */
async function app(): Promise<TestApp> {
  t ??= await appOnDatabase(database.ownerUrl);
  return t;
}

const organizationCount = async () => Number((await owner<{ n: string }>('select count(*) as n from organizations'))[0]!.n);

describe('the ehs CLI', () => {
  it('migrate applies the migrations to an empty database, and is a no-op the second time (npm run ehs)', async () => {
    const first = await ehs('migrate');
    expect(first, first.stderr).toMatchObject({ code: 0 });
    expect(first.stdout).toContain('migration applied: 0001_platform.sql');
    expect(first.stdout).toContain('Migrations are up to date.');
    const applied = await owner<{ name: string }>('select name from schema_migrations');
    expect(applied.map((r) => r.name)).toContain('0001_platform.sql');
    // The public tenant of the platform admins comes with the migrations.
    expect(await owner('select sub_domain_name from organizations')).toEqual([{ sub_domain_name: 'public' }]);

    const again = await run('npm', ['run', 'ehs', '--', 'migrate'], env());
    expect(again, again.stderr).toMatchObject({ code: 0 });
    expect(again.stdout).toContain('Migrations are up to date.');
    expect(again.stdout).not.toContain('migration applied');
  });

  it('org:create creates the organisation and an administrator who can sign in', async () => {
    const res = await ehs(
      'org:create',
      '--domain',
      'acme',
      '--name',
      'Acme',
      '--admin-email',
      'boss@acme.test',
      '--admin-password',
      STRONG,
    );
    expect(res, res.stderr).toMatchObject({ code: 0 });
    expect(res.stdout).toMatch(/Created organisation "Acme" \(acme, id [0-9a-f-]{36}\) with administrator boss@acme\.test\./);
    const [org] = await owner<{ id: string; name: string }>(`select id, name from organizations where sub_domain_name = 'acme'`);
    expect(org).toMatchObject({ name: 'Acme' });
    expect(res.stdout).toContain(org!.id);

    const s = await signIn(await app(), 'acme', 'boss@acme.test', STRONG);
    expect(s.profile.user).toMatchObject({ email: 'boss@acme.test', is_admin: true, role_name: 'Administrator', organization_id: org!.id });
    expect(s.profile.organization).toMatchObject({ name: 'Acme', sub_domain_name: 'acme' });
  });

  it('org:create refuses a sub-domain that is taken', async () => {
    const res = await ehs('org:create', '--domain', 'acme', '--name', 'Other', '--admin-email', 'x@other.test', '--admin-password', STRONG);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Error: The sub-domain "acme" is already taken.');
    expect(res.stdout).not.toContain('Created');
  });

  it('org:create refuses a password without a special character', async () => {
    const res = await ehs(
      'org:create',
      '--domain',
      'weak',
      '--name',
      'Weak',
      '--admin-email',
      'a@weak.test',
      '--admin-password',
      'Str0ngpass',
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Error: The password needs at least one special character.');
  });

  it('org:create refuses a reserved sub-domain', async () => {
    const res = await ehs('org:create', '--domain', 'www', '--name', 'World', '--admin-email', 'a@www.test', '--admin-password', STRONG);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Error: The sub-domain "www" is reserved.');
  });

  it('user:create refuses an unknown organisation', async () => {
    const res = await ehs('user:create', '--domain', 'nosuch', '--email', 'u@nosuch.test', '--password', STRONG);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Error: No organisation uses the sub-domain "nosuch".');
  });

  it('user:create adds a user who can sign in, and refuses the same e-mail twice', async () => {
    const res = await ehs('user:create', '--domain', 'acme', '--email', 'u@acme.test', '--password', STRONG);
    expect(res, res.stderr).toMatchObject({ code: 0 });
    expect(res.stdout).toMatch(/Created user u@acme\.test \(id [0-9a-f-]{36}\) in organisation acme\./);
    const s = await signIn(await app(), 'acme', 'u@acme.test', STRONG);
    expect(s.profile.user).toMatchObject({ email: 'u@acme.test', is_admin: false, role_name: null });

    const twice = await ehs('user:create', '--domain', 'acme', '--email', 'U@acme.test', '--password', STRONG);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('already exists');
  });

  it('platform-admin:create makes a platform admin who signs in on the bare domain', async () => {
    const res = await ehs('platform-admin:create', '--email', 'root@platform.test', '--password', STRONG, '--name', 'Root');
    expect(res, res.stderr).toMatchObject({ code: 0 });
    expect(res.stdout).toMatch(/Created platform super admin root@platform\.test \(id [0-9a-f-]{36}\)/);
    const s = await signIn(await app(), 'public', 'root@platform.test', STRONG);
    expect(s.profile.user).toMatchObject({ email: 'root@platform.test', full_name: 'Root', is_platform_admin: true });
  });

  it('refuses an unknown command with the usage text', async () => {
    const res = await ehs('frobnicate');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Error: unknown command "frobnicate"');
    expect(res.stderr).toContain('Usage: npm run ehs -- <command> [options]');
  });

  it('refuses missing options with the usage text', async () => {
    const org = await ehs('org:create', '--domain', 'half');
    expect(org.code).toBe(1);
    expect(org.stderr).toContain('Error: missing --name, --admin-email, --admin-password');
    expect(org.stderr).toContain('Usage: npm run ehs -- <command> [options]');
    const user = await ehs('user:create', '--domain', 'acme', '--email', 'v@acme.test');
    expect(user.code).toBe(1);
    expect(user.stderr).toContain('Error: missing --password');
    expect(user.stderr).toContain('Usage:');
  });

  it('leaves no half-created organisation or user behind after the failed runs', async () => {
    expect(await organizationCount()).toBe(2);
    expect((await owner<{ s: string }>('select sub_domain_name as s from organizations order by 1')).map((r) => r.s)).toEqual([
      'acme',
      'public',
    ]);
    const users = await owner<{ email: string }>(
      `select u.email from users u join organizations o on o.id = u.organization_id where o.sub_domain_name = 'acme' order by 1`,
    );
    expect(users.map((u) => u.email)).toEqual(['boss@acme.test', 'u@acme.test']);
    // Roles exist only for the one organisation created (its Administrator role).
    expect(await owner('select o.sub_domain_name, r.name from roles r join organizations o on o.id = r.organization_id')).toEqual([
      { sub_domain_name: 'acme', name: 'Administrator' },
    ]);
  });
});

describe('the embedded database in DATA_DIR (npm start, npm run ehs)', () => {
  const folders: string[] = [];
  /** A DATA_DIR as a user would make one (open, 0755): the app closes it itself. */
  const folder = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    chmodSync(dir, 0o755);
    folders.push(dir);
    return dir;
  };
  let server: Child | undefined;
  afterAll(async () => {
    await stopChild(server);
    for (const f of folders) {
      chmodSync(f, 0o755);
      rmSync(f, { recursive: true, force: true });
    }
  });
  // DRAIN_SECONDS 0: no balancer to leave, so SIGTERM stops the server at once.
  const base = () => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    JOBS: '0',
    DRAIN_SECONDS: '0',
  });

  it('org:create while the server holds the embedded database says so and how to go on (it printed "undefined")', async () => {
    const dataDir = folder('bulwark-cli-embedded-');
    const pgPort = await freePort();
    const port = await freePort();
    server = startChild(serverArgs(), {
      ...base(),
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
    });
    await waitUntil(
      'the server to answer',
      async () => {
        if (server!.proc.exitCode !== null) throw new Error(`the server exited:\n${server!.output()}`);
        const res = await fetch(`http://127.0.0.1:${port}/api/v2/api_connection_checks`).catch(() => null);
        return res?.status === 200;
      },
      90_000,
      250,
    );

    const args = ['org:create', '--domain', 'held', '--name', 'Held', '--admin-email', 'a@held.test', '--admin-password', STRONG];
    const cliEnv = { ...base(), DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort) };
    const res = await run(process.execPath, cli(...args), cliEnv);
    expect(res.code).toBe(1);
    expect(res.stderr).not.toMatch(/undefined/);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toContain(`Error: The embedded database in ${dataDir} is in use by a running Bulwark server`);
    expect(res.stderr).toContain('stop that server first');
    expect(res.stderr).toContain(
      `DATABASE_URL=postgres://postgres:<the password in ${path.join(dataDir, 'pg-password')}>@127.0.0.1:${pgPort}/bulwark`,
    );

    // The way it offers works: the same command on the running server's database.
    const password = readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
    const through = await run(process.execPath, cli(...args), {
      ...cliEnv,
      DATABASE_URL: `postgres://postgres:${password}@127.0.0.1:${pgPort}/bulwark`,
    });
    expect(through, through.stderr).toMatchObject({ code: 0 });
    expect(through.stdout).toContain('Created organisation "Held"');
    await stopChild(server);
  }, 300_000);

  it('npm start with a DATA_DIR its database cannot reach names the folder in one line and exits 1 (it was a stack trace)', async () => {
    // A folder closed to others (as /root is): as root the embedded PostgreSQL runs as its own account,
    // which cannot pass through it; as another user, the app itself cannot.
    const closed = folder('bulwark-closed-');
    chmodSync(closed, process.getuid?.() === 0 ? 0o700 : 0o000);
    const dataDir = path.join(closed, 'data');
    const res = await run(process.execPath, serverArgs(), {
      ...base(),
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
    });
    expect(res.code).toBe(1);
    expect(res.stderr).not.toMatch(/^\s+at /m);
    const lines = res.stderr.trim().split('\n');
    expect(lines, res.stderr).toHaveLength(1);
    expect(lines[0]).toContain('[bulwark] Cannot start:');
    expect(lines[0]).toContain(closed);
    if (process.getuid?.() === 0) {
      expect(lines[0]).toContain(`which cannot enter ${closed}, the folder above DATA_DIR ${dataDir}`);
    }
  }, 120_000);
});
