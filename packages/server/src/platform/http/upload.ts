import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { SpooledFile } from '../storage/blobs.js';

export type Upload = {
  fileName: string;
  fields: Record<string, string>;
  /**
   * The file as it arrived, spooled to this node's temporary folder: hand it to `storage.store`
   * (`bytes: upload.file`) and it is streamed to the store without ever being whole in memory.
   */
  file: SpooledFile;
  /** The whole file in memory, read on first use: for what parses it (a workbook import), not for storing. */
  readonly bytes: Buffer;
  /** Deletes the spooled file; the router calls it once the answer has gone. */
  discard: () => Promise<void>;
};

/** The largest single upload any route accepts; each purpose then applies its own, smaller rule. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Uploads wait here between arriving and being stored; each is removed when its request ends. */
const SPOOL_DIR = path.join(tmpdir(), `bulwark-uploads-${process.pid}`);

/**
 * Reads the one file of a multipart request (field name `file`) and its text fields. Every part is read,
 * so a second file is refused rather than ignored. A request that is not multipart or has no file is a
 * field error, a file over `maxBytes` is `file_too_large` (the body is never read past the limit), and a
 * body that is cut off or malformed is a field error too, never a server error. The file is written to
 * a temporary file as it streams in.
 */
export async function readUpload(req: FastifyRequest, maxBytes = MAX_UPLOAD_BYTES): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError('validation_failed', { fields: { file: 'storage.noFile' } });
  const fields: Record<string, string> = {};
  let file: { fileName: string; spooled: SpooledFile } | null = null;
  const written: string[] = [];
  const removeWritten = () => Promise.all(written.map((p) => rm(p, { force: true })));
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 10_000 } })) {
      if (part.type === 'file') {
        await mkdir(SPOOL_DIR, { recursive: true, mode: 0o700 });
        const target = path.join(SPOOL_DIR, randomUUID());
        written.push(target);
        await pipeline(part.file, createWriteStream(target, { mode: 0o600 }));
        if (part.file.truncated) throw new AppError('file_too_large');
        file = { fileName: part.filename || 'file', spooled: { kind: 'spooled', path: target, size: (await stat(target)).size } };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    await removeWritten();
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('file_too_large');
    if (code === 'FST_FILES_LIMIT') throw new AppError('validation_failed', { fields: { file: 'storage.oneFile' } });
    // Whatever else the multipart parser refuses (no boundary, a cut-off body, a bad part header, too
    // many fields) is the client's malformed upload.
    throw new AppError('validation_failed', { fields: { file: 'storage.unreadable' } });
  }
  if (!file) throw new AppError('validation_failed', { fields: { file: 'storage.noFile' } });
  const { fileName, spooled } = file;
  let bytes: Buffer | null = null;
  return {
    fileName,
    fields,
    file: spooled,
    get bytes() {
      // At most the purpose's limit (imports: 5 MB), read once.
      bytes ??= readFileSync(spooled.path);
      return bytes;
    },
    discard: async () => {
      await removeWritten();
    },
  };
}
