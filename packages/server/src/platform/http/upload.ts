import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

export type Upload = { fileName: string; bytes: Buffer; fields: Record<string, string> };

/** The largest single upload any route accepts; each purpose then applies its own, smaller rule. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Reads the one file of a multipart request (field name `file`) and its text fields. Every part is read,
 * so a second file is refused rather than ignored. A request that is not multipart or has no file is a
 * field error, a file over `maxBytes` is `file_too_large` (the body is never read past the limit), and a
 * body that is cut off or malformed is a field error too, never a server error.
 */
export async function readUpload(req: FastifyRequest, maxBytes = MAX_UPLOAD_BYTES): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError('validation_failed', { fields: { file: 'storage.noFile' } });
  const fields: Record<string, string> = {};
  let file: { fileName: string; bytes: Buffer } | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 10_000 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw new AppError('file_too_large');
        file = { fileName: part.filename || 'file', bytes };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('file_too_large');
    if (code === 'FST_FILES_LIMIT') throw new AppError('validation_failed', { fields: { file: 'storage.oneFile' } });
    // Whatever else the multipart parser refuses (no boundary, a cut-off body, a bad part header, too
    // many fields) is the client's malformed upload.
    throw new AppError('validation_failed', { fields: { file: 'storage.unreadable' } });
  }
  if (!file) throw new AppError('validation_failed', { fields: { file: 'storage.noFile' } });
  return { ...file, fields };
}
