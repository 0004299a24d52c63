import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection string of the server the tests create their databases on. */
    pgAdminUrl: string;
  }
}

/**
 * The real PostgreSQL for the whole run: the one DATABASE_URL names, else an embedded server in a
 * temporary folder. Each test file then creates its own database on it.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    project.provide('pgAdminUrl', process.env.DATABASE_URL);
    return;
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'bulwark-test-pg-'));
  // PostgreSQL runs as its own system user, which must be able to enter the folder.
  chmodSync(dir, 0o755);
  const port = 55_000 + Math.floor(Math.random() * 5_000);
  const pg = await startEmbeddedPostgres(dir, port, () => {});
  project.provide('pgAdminUrl', pg.url);
  return async () => {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
