import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

export type Upload = { fileName: string; bytes: Buffer; fields: Record<string, string> };

/** The largest single upload any route accepts; each purpose then applies its own, smaller rule. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/**
 * Reads the one file of a multipart request (field name `file`) and its text fields. A request that is
 * not multipart or has no file is a field error, a file over `maxBytes` is `file_too_large`: the body
 * is never read past the limit.
 */
export async function readUpload(req: FastifyRequest, maxBytes = MAX_UPLOAD_BYTES): Promise<Upload> {
  if (!req.isMultipart()) throw new AppError('validation_failed', { fields: { file: 'storage.noFile' } });
  const part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 10_000 } });
  if (!part) throw new AppError('validation_failed', { fields: { file: 'storage.noFile' } });
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('file_too_large');
    throw err;
  }
  if (part.file.truncated) throw new AppError('file_too_large');
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    const v = Array.isArray(value) ? value[0] : value;
    if (v && v.type === 'field' && typeof v.value === 'string') fields[name] = v.value;
  }
  return { fileName: part.filename || 'file', bytes, fields };
}
