import { createReadStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FILE_RULES, formatBytes, type FilePurpose } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Tx } from '../db/db.js';
import { files, organizations } from '../db/schema.js';
import { AppError } from '../errors.js';

export type StoredFile = { id: string; file_name: string; mime_type: string; size_bytes: number; url: string };

/** The type a file really is, read from its first bytes; null when unknown (plain text and the like). */
export async function sniffType(bytes: Buffer): Promise<string | null> {
  return (await fileTypeFromBuffer(bytes))?.mime ?? null;
}

/** Refuses bytes that break the purpose's rule: size first (the cheaper check), then the sniffed type. */
export async function checkUpload(purpose: FilePurpose, bytes: Buffer): Promise<string> {
  const rule = FILE_RULES[purpose];
  if (bytes.length > rule.maxBytes) {
    throw new AppError('file_too_large', { fields: { file: 'storage.tooLarge' }, vars: { max: formatBytes(rule.maxBytes) } });
  }
  const mime = await sniffType(bytes);
  if (!mime || !(rule.types as readonly string[]).includes(mime))
    throw new AppError('file_type_refused', { fields: { file: 'storage.wrongType' } });
  return mime;
}

/** Keeps names readable and harmless: no paths, no control characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = [...path.basename(name.replaceAll('\\', '/'))]
    .filter((c) => c.charCodeAt(0) > 31 && c.charCodeAt(0) !== 127)
    .join('')
    .trim();
  return (base || 'file').slice(0, 200);
}

export type Storage = {
  /**
   * Stores a file for the transaction's organisation: checks the rule, reserves the space against the
   * quota (refusing with memory_exhausted when it would overflow), writes the row and the bytes. If the
   * transaction later rolls back, the bytes stay behind as an orphan but are never served or counted.
   */
  store: (tx: Tx, input: { purpose: FilePurpose; fileName: string; bytes: Buffer; uploadedBy: string | null }) => Promise<StoredFile>;
  /** Deletes the row and gives the space back; the bytes go when `purge` runs after the commit. */
  remove: (tx: Tx, fileId: string) => Promise<{ purge: () => Promise<void> } | null>;
  /** The row of one of the organisation's files, or null. */
  find: (tx: Tx, fileId: string) => Promise<typeof files.$inferSelect | null>;
  open: (storageKey: string) => NodeJS.ReadableStream;
};

export function createStorage(filesDir: string): Storage {
  const full = (key: string) => path.join(filesDir, key);
  return {
    async store(tx, input) {
      const mime = await checkUpload(input.purpose, input.bytes);
      const size = input.bytes.length;
      const [reserved] = await tx
        .update(organizations)
        .set({ storageUsedBytes: sql`${organizations.storageUsedBytes} + ${size}` })
        .where(
          and(
            eq(organizations.id, sql`app_current_org()`),
            sql`${organizations.storageUsedBytes} + ${size} <= ${organizations.storageQuotaBytes}`,
          ),
        )
        .returning({ id: organizations.id });
      if (!reserved) throw new AppError('memory_exhausted');
      const [row] = await tx
        .insert(files)
        .values({
          purpose: input.purpose,
          fileName: cleanFileName(input.fileName),
          mimeType: mime,
          sizeBytes: size,
          storageKey: 'pending',
          uploadedBy: input.uploadedBy,
        })
        .returning();
      const key = `${reserved.id}/${row!.id}`;
      await tx.update(files).set({ storageKey: key }).where(eq(files.id, row!.id));
      await mkdir(path.dirname(full(key)), { recursive: true });
      await writeFile(full(key), input.bytes);
      return { id: row!.id, file_name: row!.fileName, mime_type: mime, size_bytes: size, url: fileUrl(row!.id) };
    },
    async remove(tx, fileId) {
      const [row] = await tx.delete(files).where(eq(files.id, fileId)).returning();
      if (!row) return null;
      await tx
        .update(organizations)
        .set({ storageUsedBytes: sql`greatest(0, ${organizations.storageUsedBytes} - ${row.sizeBytes})` })
        .where(eq(organizations.id, sql`app_current_org()`));
      return { purge: () => rm(full(row.storageKey), { force: true }) };
    },
    async find(tx, fileId) {
      const [row] = await tx.select().from(files).where(eq(files.id, fileId));
      return row ?? null;
    },
    open: (key) => createReadStream(full(key)),
  };
}

/** Where the web fetches a stored file (with its session; see storage/routes.ts). */
export function fileUrl(id: string): string {
  return `/api/files/${id}`;
}
