import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/platform/db/db.js';
import { PASSWORD_FILE, startEmbeddedPostgres } from '../src/platform/db/embedded.js';
import { startServer, type Running } from '../src/runtime.js';
import { createOrg, emptyDatabase, PNG, testConfig, type TestApp } from './helpers.js';
import { freePort } from './process-helpers.js';

/**
 * Attack: another account on the machine reads every tenant. The embedded PostgreSQL's superuser
 * password was a constant of the source code, and DATA_DIR, its secrets and the stored files were
 * readable by all. Now the password is generated per DATA_DIR and every folder is closed to others.
 */

const dirs: string[] = [];
/** A temporary DATA_DIR as a user would make it: open to everybody (0755) until the app closes it. */
function openFolder(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const mode = (p: string) => statSync(p).mode & 0o777;
const isRoot = process.getuid?.() === 0;
const postgresGid = () => Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());

/** The answer of the embedded server to a password: 'ok' or the refusal's code (28P01: wrong password). */
async function tryPassword(port: number, password: string): Promise<string> {
  const c = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'bulwark' });
  try {
    await c.connect();
    await c.query('select 1');
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await c.end().catch(() => {});
  }
}

describe('the embedded PostgreSQL (DATA_DIR)', () => {
  const dataDir = openFolder('bulwark-datadir-');
  let port = 0;

  it('generates its superuser password into DATA_DIR (random, 0600), refuses the old constant, and keeps the folder closed', async () => {
    port = await freePort();
    const server = await startEmbeddedPostgres(dataDir, port, () => {});
    try {
      const file = path.join(dataDir, PASSWORD_FILE);
      const password = readFileSync(file, 'utf8').trim();
      expect(password).not.toBe('bulwark-embedded');
      expect(password.length).toBeGreaterThanOrEqual(40);
      expect(mode(file)).toBe(0o600);
      expect(server.url).toBe(`postgres://postgres:${password}@127.0.0.1:${port}/bulwark`);
      expect(await tryPassword(port, password)).toBe('ok');
      expect(await tryPassword(port, 'bulwark-embedded')).toBe('28P01');
      // Nobody else may list or enter DATA_DIR. As root, PostgreSQL runs as its own account, whose
      // group alone may pass through (0710), without reading the folder's list of files.
      if (isRoot) {
        expect(mode(dataDir)).toBe(0o710);
        expect(statSync(dataDir).gid).toBe(postgresGid());
      } else {
        expect(mode(dataDir)).toBe(0o700);
      }
      expect(mode(path.join(dataDir, 'pg')) & 0o077).toBe(0);
      // No Unix socket for other accounts to reach it by, and initdb's password file is gone.
      expect(existsSync(`/tmp/.s.PGSQL.${port}`)).toBe(false);
      expect(existsSync(path.join(dataDir, '.pg-init'))).toBe(false);
    } finally {
      await server.stop();
    }
  });

  it('reuses the generated password at the next start', async () => {
    const before = readFileSync(path.join(dataDir, PASSWORD_FILE), 'utf8');
    const server = await startEmbeddedPostgres(dataDir, port, () => {});
    try {
      expect(readFileSync(path.join(dataDir, PASSWORD_FILE), 'utf8')).toBe(before);
      expect(await tryPassword(port, before.trim())).toBe('ok');
    } finally {
      await server.stop();
    }
  });

  it('moves a cluster made with the old constant password to a generated one', async () => {
    // The cluster as the previous version left it: the constant, and no password file.
    const first = await startEmbeddedPostgres(dataDir, port, () => {});
    const c = new pg.Client({ connectionString: first.url });
    await c.connect();
    await c.query(`alter role postgres password 'bulwark-embedded'`);
    await c.end();
    await first.stop();
    unlinkSync(path.join(dataDir, PASSWORD_FILE));

    const said: string[] = [];
    const server = await startEmbeddedPostgres(dataDir, port, (m) => said.push(m));
    try {
      const password = readFileSync(path.join(dataDir, PASSWORD_FILE), 'utf8').trim();
      expect(password).not.toBe('bulwark-embedded');
      expect(await tryPassword(port, password)).toBe('ok');
      expect(await tryPassword(port, 'bulwark-embedded')).toBe('28P01');
      expect(said.join('\n')).toContain('now uses the generated password');
    } finally {
      await server.stop();
    }
  });
});

describe('DATA_DIR and the stored files of a running app', () => {
  it('closes DATA_DIR, its secret and the files folder to other accounts, and stores each file 0600', async () => {
    const database = await emptyDatabase();
    const dataDir = openFolder('bulwark-app-datadir-');
    const filesDir = path.join(dataDir, 'files');
    // Left open by an earlier version: the start closes them.
    mkdirSync(filesDir, { mode: 0o755 });
    chmodSync(filesDir, 0o755);
    writeFileSync(path.join(dataDir, 'app-secret'), 'x'.repeat(64), { mode: 0o600 });
    let running: Running | undefined;
    try {
      running = await startServer(testConfig({ databaseUrl: database.ownerUrl, dataDir, filesDir, jobs: false }), { listen: false });
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(filesDir)).toBe(0o700);
      expect(mode(path.join(dataDir, 'app-secret'))).toBe(0o600);

      const t = { app: running.app, deps: running.deps, ownerUrl: database.ownerUrl, appUrl: '', close: async () => {} } satisfies TestApp;
      const org = await createOrg(t, 'filemodes');
      const file = await inTenant(running.deps.db.app, org.id, (tx) =>
        running!.deps.storage.store(tx, { purpose: 'photo', fileName: 'me.png', bytes: PNG, uploadedBy: null }),
      );
      const stored = path.join(filesDir, org.id, file.id);
      expect(readFileSync(stored).equals(PNG)).toBe(true);
      expect(mode(stored)).toBe(0o600);
      expect(mode(path.dirname(stored))).toBe(0o700);
    } finally {
      await running?.stop();
      await database.drop();
    }
  });
});
