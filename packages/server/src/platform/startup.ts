/**
 * A start that cannot go on for a reason the operator can fix (a folder, a port, a database held by a
 * running server). The message is one line saying what and where; `main.ts` and the CLI print it
 * without a stack trace and exit 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}

const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOSPC: 'no space left on the device',
};

/**
 * The one line to print for a failed start, or null for an unexpected error (a bug, whose stack
 * trace is what helps).
 */
export function describeStartupFailure(err: unknown): string | null {
  if (err instanceof StartupError) return err.message;
  if (!(err instanceof Error)) return null;
  const { code, path, port } = err as NodeJS.ErrnoException & { port?: number };
  if (code && path && FS_REASONS[code]) {
    return `Cannot use ${path}: ${FS_REASONS[code]}. Check DATA_DIR (and FILES_DIR): this user must be able to create and write it.`;
  }
  if (code === 'EADDRINUSE' && port !== undefined) return `Port ${port} is already in use by another program: stop it or set PORT.`;
  return null;
}
