import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds every tenant's data (the embedded cluster, stored files) and the secrets that open it
 * (`app-secret`, `pg-password`); another account on the machine must not read or list any of it.
 */

/** A folder only this process's user may enter: 0700. `shareWithGroup` lets that group pass through (0710). */
export function protectFolder(dir: string, options: { shareWithGroup?: number; log?: (m: string) => void } = {}): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mode = options.shareWithGroup === undefined ? 0o700 : 0o710;
  const st = statSync(dir);
  if ((st.mode & 0o777) === mode && (options.shareWithGroup === undefined || st.gid === options.shareWithGroup)) return;
  try {
    if (options.shareWithGroup !== undefined) chownSync(dir, st.uid, options.shareWithGroup);
    chmodSync(dir, mode);
  } catch (err) {
    // A folder someone else owns (e.g. a mounted volume): its owner decides; say so instead of failing.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
    options.log?.(`${dir} belongs to another user: its mode ${(st.mode & 0o777).toString(8)} was left as it is`);
  }
}

/** Whether `child` is `parent` or lies inside it. */
function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Tightens the folders of a running app: DATA_DIR (when it exists or will hold the stored files) and
 * the stored files' folder. An embedded PostgreSQL has already set DATA_DIR itself (it may need to let
 * its own system user through), so DATA_DIR is left to it then.
 */
export function protectAppFolders(config: { dataDir: string; filesDir: string }, embedded: boolean, log: (m: string) => void): void {
  if (!embedded && (existsSync(config.dataDir) || isInside(config.filesDir, config.dataDir))) protectFolder(config.dataDir, { log });
  protectFolder(config.filesDir, { log });
}
