import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The server package's folder (packages/server), found by walking up to its package.json. The same code
 * runs from its sources (src/platform/…, through tsx in tests and development) and bundled into one file
 * (dist/main.js, `npm start`), so files read at run time (migrations, the web build, data files) are
 * named from here rather than from the current module's own folder.
 */
export const serverRoot = findPackageRoot(import.meta.dirname);

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

/** A path inside the server package, e.g. `serverPath('migrations')`. */
export const serverPath = (...parts: string[]) => path.join(serverRoot, ...parts);
