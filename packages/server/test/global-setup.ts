import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/platform/db/embedded.js';
import { migrate } from '../src/platform/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin connection string of the server the tests create their databases on. */
    pgAdminUrl: string;
    /** A database on that server with every migration applied, which `freshDatabase` copies. */
    pgTemplate: string;
  }
}

/**
 * The real PostgreSQL for the whole run: the one DATABASE_URL names, else an embedded server in a
 * temporary folder. Each test file then creates its own database on it.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.DATABASE_URL;
  let stopServer = async () => {};
  if (!adminUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), 'bulwark-test-pg-'));
    // PostgreSQL runs as its own system user, which must be able to enter the folder.
    chmodSync(dir, 0o755);
    const port = 55_000 + Math.floor(Math.random() * 5_000);
    const embedded = await startEmbeddedPostgres(dir, port, () => {});
    adminUrl = embedded.url;
    stopServer = async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  project.provide('pgAdminUrl', adminUrl);
  const template = await migratedTemplate(adminUrl);
  project.provide('pgTemplate', template.name);
  return async () => {
    await template.drop();
    await stopServer();
  };
}

/**
 * Migrates one database for the whole run. A test app's database is a copy of it (a file copy inside
 * PostgreSQL) instead of every migration replayed: about a second and a half of each of some two
 * hundred test apps on a two-core machine.
 */
async function migratedTemplate(adminUrl: string) {
  const name = `bulwark_template_${randomBytes(5).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  // No one connects to it again: a copy needs its source idle.
  await admin(`alter database ${name} with is_template true allow_connections false`);
  return {
    name,
    drop: async () => {
      await admin(`alter database ${name} with is_template false`);
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}
