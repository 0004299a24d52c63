import path from 'node:path';
import { FILE_RULES, formatBytes, stripInvisible, type FilePurpose } from '@bulwark/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import type { Tx } from '../db/db.js';
import { files, organizations } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { Push } from '../push/push.js';
import { isSpooled, localBlobs, sizeOf, type BlobStore, type FileSource } from './blobs.js';
import { announceAfterCommit, type StorageFigures } from './memory-push.js';

export type { FileSource };

export type StoredFile = { id: string; file_name: string; mime_type: string; size_bytes: number; url: string };

/**
 * The type a file really is, read from its first bytes (a spooled upload is read from disk only as far
 * as the detector needs); null when unknown (plain text and the like).
 */
export async function sniffType(source: FileSource): Promise<string | null> {
  return (await (isSpooled(source) ? fileTypeFromFile(source.path) : fileTypeFromBuffer(source)))?.mime ?? null;
}

/** Refuses bytes that break the purpose's rule: size first (the cheaper check), then the sniffed type. */
export async function checkUpload(purpose: FilePurpose, bytes: FileSource): Promise<string> {
  const rule = FILE_RULES[purpose];
  if (sizeOf(bytes) > rule.maxBytes) {
    throw new AppError('file_too_large', { fields: { file: 'storage.tooLarge' }, vars: { max: formatBytes(rule.maxBytes) } });
  }
  const mime = await sniffType(bytes);
  if (!mime || !(rule.types as readonly string[]).includes(mime))
    throw new AppError('file_type_refused', { fields: { file: 'storage.wrongType' } });
  return mime;
}

/**
 * Keeps names readable and harmless: no paths, none of the invisible characters that make a name
 * read as another (`photo\u202Egnp.exe` shows as `photoexe.png`), at most 200 characters. Applied when
 * a file is stored and again when it is served.
 */
export function cleanFileName(name: string): string {
  const base = stripInvisible(path.basename(stripInvisible(name).replaceAll('\\', '/'))).trim();
  return (base || 'file').slice(0, 200);
}

export type Storage = {
  /**
   * Stores a file for the transaction's organisation: checks the rule, counts its bytes and writes the
   * row and the bytes. A member's upload is charged to the quota at once (memory_exhausted when it
   * would overflow). A guest's (`pending`) is held apart until a record links it (`link`): it counts in
   * the pending figure, which may not exceed the quota either (rate_limited), and it is refused when it
   * could never fit the quota. If the transaction rolls back, the bytes stay behind as an orphan but
   * are never served or counted.
   */
  store: (
    tx: Tx,
    input: { purpose: FilePurpose; fileName: string; bytes: FileSource; uploadedBy: string | null; pending?: boolean },
  ) => Promise<StoredFile>;
  /**
   * A record now links these files: guests' uploads among them are charged to the quota (refused with
   * memory_exhausted when they do not fit). Files already charged are left as they are.
   */
  link: (tx: Tx, fileIds: readonly string[]) => Promise<void>;
  /** Deletes the row and gives the space back; the bytes go when `purge` runs after the commit. */
  remove: (tx: Tx, fileId: string) => Promise<{ purge: () => Promise<void> } | null>;
  /** The row of one of the organisation's files, or null. */
  find: (tx: Tx, fileId: string) => Promise<typeof files.$inferSelect | null>;
  open: (storageKey: string) => NodeJS.ReadableStream;
  /** Deletes stored bytes (after the commit that removed their row). */
  purge: (storageKey: string) => Promise<void>;
  /** Where the bytes live: this node's FILES_DIR or an S3-compatible bucket. */
  blobs: BlobStore;
};

const figures = {
  organizationId: organizations.id,
  used: organizations.storageUsedBytes,
  quota: organizations.storageQuotaBytes,
  pending: organizations.storagePendingBytes,
};
const thisOrganization = eq(organizations.id, sql`app_current_org()`);

/**
 * `where` is FILES_DIR (the local driver) or a driver of blobs.ts (S3). `push` announces the new
 * figures after the commit (tenant_memory); the CLI and some tests go without.
 */
export function createStorage(where: string | BlobStore, push?: Pick<Push, 'toOrganization'>): Storage {
  const blobs = typeof where === 'string' ? localBlobs(where) : where;
  const announce = (tx: Tx, f: StorageFigures | undefined) => f && announceAfterCommit(tx, push, f);
  const purge = (key: string) => blobs.remove(key);
  return {
    blobs,
    async store(tx, input) {
      const mime = await checkUpload(input.purpose, input.bytes);
      const size = sizeOf(input.bytes);
      const counted = await (input.pending ? holdForGuest(tx, size) : charge(tx, size));
      // A guest's upload changes no figure the members see: outsiders cannot make every screen reload.
      if (!input.pending) announce(tx, counted);
      const [row] = await tx
        .insert(files)
        .values({
          purpose: input.purpose,
          fileName: cleanFileName(input.fileName),
          mimeType: mime,
          sizeBytes: size,
          storageKey: 'pending',
          uploadedBy: input.uploadedBy,
          pending: input.pending ?? false,
        })
        .returning();
      const key = `${counted.organizationId}/${row!.id}`;
      await tx.update(files).set({ storageKey: key }).where(eq(files.id, row!.id));
      // The bytes are durable before the row commits: a committed row always has them.
      await blobs.put(key, input.bytes, mime);
      return { id: row!.id, file_name: row!.fileName, mime_type: mime, size_bytes: size, url: fileUrl(row!.id) };
    },
    async link(tx, fileIds) {
      if (fileIds.length === 0) return;
      const held = await tx
        .update(files)
        .set({ pending: false })
        .where(and(inArray(files.id, [...fileIds]), eq(files.pending, true)))
        .returning({ size: files.sizeBytes });
      if (held.length === 0) return;
      const total = held.reduce((sum, f) => sum + f.size, 0);
      const [moved] = await tx
        .update(organizations)
        .set({
          storageUsedBytes: sql`${organizations.storageUsedBytes} + ${total}`,
          storagePendingBytes: sql`greatest(0, ${organizations.storagePendingBytes} - ${total})`,
        })
        .where(and(thisOrganization, sql`${organizations.storageUsedBytes} + ${total} <= ${organizations.storageQuotaBytes}`))
        .returning(figures);
      if (!moved) throw new AppError('memory_exhausted', { fields: { attachment_ids: 'errors.memory_exhausted' } });
      announce(tx, moved);
    },
    async remove(tx, fileId) {
      const [row] = await tx.delete(files).where(eq(files.id, fileId)).returning();
      if (!row) return null;
      const column = row.pending ? organizations.storagePendingBytes : organizations.storageUsedBytes;
      const [freed] = await tx
        .update(organizations)
        .set(
          row.pending
            ? { storagePendingBytes: sql`greatest(0, ${column} - ${row.sizeBytes})` }
            : { storageUsedBytes: sql`greatest(0, ${column} - ${row.sizeBytes})` },
        )
        .where(thisOrganization)
        .returning(figures);
      announce(tx, freed);
      return { purge: () => purge(row.storageKey) };
    },
    async find(tx, fileId) {
      const [row] = await tx.select().from(files).where(eq(files.id, fileId));
      return row ?? null;
    },
    open: (key) => blobs.open(key),
    purge,
  };
}

/** Reserves a member's upload against the quota. */
async function charge(tx: Tx, size: number): Promise<StorageFigures> {
  const [reserved] = await tx
    .update(organizations)
    .set({ storageUsedBytes: sql`${organizations.storageUsedBytes} + ${size}` })
    .where(and(thisOrganization, sql`${organizations.storageUsedBytes} + ${size} <= ${organizations.storageQuotaBytes}`))
    .returning(figures);
  if (!reserved) throw new AppError('memory_exhausted');
  return reserved;
}

/**
 * Counts a guest's upload as pending. Refused when it could never be linked (the quota has no room
 * for it) and when guests' waiting uploads would pass the quota: the disk a stranger can fill stays
 * bounded, and the swept uploads give the room back within a day.
 */
async function holdForGuest(tx: Tx, size: number): Promise<StorageFigures> {
  const [held] = await tx
    .update(organizations)
    .set({ storagePendingBytes: sql`${organizations.storagePendingBytes} + ${size}` })
    .where(
      and(
        thisOrganization,
        sql`${organizations.storageUsedBytes} + ${size} <= ${organizations.storageQuotaBytes}`,
        sql`${organizations.storagePendingBytes} + ${size} <= ${organizations.storageQuotaBytes}`,
      ),
    )
    .returning(figures);
  if (held) return held;
  const [now] = await tx.select(figures).from(organizations).where(thisOrganization);
  if (!now || now.used + size > now.quota) throw new AppError('memory_exhausted');
  throw new AppError('rate_limited');
}

/** Where the web fetches a stored file (with its session; see storage/routes.ts). */
export function fileUrl(id: string): string {
  return `/api/files/${id}`;
}
