import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestApp } from './helpers.js';

/** The repository's root (redocly.yaml, node_modules). */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Tools run offline: no telemetry, no update check (the tests must not reach the network). */
const OFFLINE_ENV = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
  CI: 'true',
};

/** The document the app serves, written to a new folder of its own. */
export async function servedDocument(t: TestApp): Promise<{ dir: string; file: string; doc: OpenApiDoc }> {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  if (res.statusCode !== 200) throw new Error(`/api/docs/json answered ${res.statusCode}: ${res.body}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'bulwark-openapi-'));
  const file = path.join(dir, 'openapi.json');
  writeFileSync(file, res.body);
  return { dir, file, doc: res.json() as OpenApiDoc };
}

export type OpenApiDoc = {
  paths: Record<string, Record<string, { operationId?: string; security?: Array<Record<string, string[]>>; tags?: string[] }>>;
  components: { securitySchemes?: Record<string, unknown>; schemas?: Record<string, unknown> };
  servers?: unknown[];
};

/** Runs a Node script of a package's bin with the repository as working folder; resolves whatever the exit code. */
export function runNode(script: string, args: string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, script), ...args],
      { cwd, env: OFFLINE_ENV, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Writes a file under a folder, for the generated client's test. */
export function writeIn(dir: string, name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}
