import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * The bytes of a file to store: in memory (a generated PDF, a test's PNG) or spooled on this node's
 * disk by the upload reader (`platform/http/upload.ts`), from where they are streamed to the store.
 */
export type FileSource = Buffer | SpooledFile;

/** An uploaded file written to a temporary file as it arrived: never held whole in memory. */
export type SpooledFile = { readonly kind: 'spooled'; readonly path: string; readonly size: number };

export function isSpooled(source: FileSource): source is SpooledFile {
  return !Buffer.isBuffer(source);
}

export function sizeOf(source: FileSource): number {
  return isSpooled(source) ? source.size : source.length;
}

/** The source as a stream: a spooled file is read from disk in chunks. */
export function streamOf(source: FileSource): Readable {
  return isSpooled(source) ? createReadStream(source.path) : Readable.from([source]);
}

/**
 * Where stored files' bytes live, by key (`<organisation id>/<file id>`). The quota, the types, the
 * rows and who may read what are `storage.ts`'s; a driver only moves bytes.
 */
export type BlobStore = {
  /** `local` (FILES_DIR on this node's disk) or `s3` (a bucket every node reaches). */
  readonly kind: 'local' | 's3';
  /** Writes the bytes under `key`, streamed; resolves once they are durable in the store. */
  put: (key: string, source: FileSource, contentType: string) => Promise<void>;
  /** The bytes, streamed; a missing key fails the stream (as a missing file on disk does). */
  open: (key: string) => Readable;
  /** Deletes the bytes; a key already gone is not an error. */
  remove: (key: string) => Promise<void>;
  /** Fails with a reason the operator can act on when the store cannot be used (checked at start). */
  check: () => Promise<void>;
};

/** FILES_DIR on this node's disk: the default, and right for one node (or several sharing a volume). */
export function localBlobs(filesDir: string): BlobStore {
  const full = (key: string) => path.join(filesDir, key);
  return {
    kind: 'local',
    async put(key, source) {
      // Tenants' files are for this app's account alone (the folder is 0700 too: see data-dir.ts).
      await mkdir(path.dirname(full(key)), { recursive: true, mode: 0o700 });
      // Written beside its final name and renamed, so a reader never sees half a file.
      const partial = `${full(key)}.partial`;
      try {
        await pipeline(streamOf(source), createWriteStream(partial, { mode: 0o600 }));
        await rename(partial, full(key));
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    },
    open: (key) => createReadStream(full(key)),
    remove: (key) => rm(full(key), { force: true }),
    check: async () => {
      await mkdir(filesDir, { recursive: true, mode: 0o700 });
    },
  };
}
