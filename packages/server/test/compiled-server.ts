import { spawnSync } from 'node:child_process';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
let checked = false;

/**
 * The compiled server and CLI (packages/server/dist/main.js and cli.js), as `npm start` runs the server:
 * rebuilt first, once per test process, if their sources changed since the last build (`npm test` has
 * just built them, so this only compares the build stamp). A process started from them is up in a
 * fraction of the time tsx takes to compile the sources at every start, and is what production runs.
 */
export function compiledServer(): { main: string; cli: string } {
  if (!checked) {
    const built = spawnSync(process.execPath, ['scripts/build.mjs', 'server'], { cwd: REPO_ROOT, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`scripts/build.mjs server failed:\n${built.stdout}${built.stderr}`);
    checked = true;
  }
  const dist = path.join(REPO_ROOT, 'packages/server/dist');
  return { main: path.join(dist, 'main.js'), cli: path.join(dist, 'cli.js') };
}

/** The node arguments that start the compiled server. */
export const serverArgs = (): string[] => ['--enable-source-maps', compiledServer().main];
