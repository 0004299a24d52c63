import { STORAGE_LARGEST_FILES, type StorageUsage } from '@bulwark/domain';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../db/db.js';
import { files, organizations, users } from '../db/schema.js';
import { linksOf, unlinkedCondition } from './links.js';

/**
 * What uses the organisation's storage, for its admin: the quota and what is charged to it, guests'
 * uploads held apart, files no record links (swept a day after upload), and the largest files with
 * the records that link them.
 */
export async function storageUsage(tx: Tx): Promise<StorageUsage> {
  const [org] = await tx
    .select({ used: organizations.storageUsedBytes, quota: organizations.storageQuotaBytes, pending: organizations.storagePendingBytes })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  const tally = (where: SQL | undefined) =>
    tx
      .select({ n: count(), bytes: sql<string>`coalesce(sum(${files.sizeBytes}), 0)` })
      .from(files)
      .where(where)
      .then((rows) => ({ n: Number(rows[0]?.n ?? 0), bytes: Number(rows[0]?.bytes ?? 0) }));
  const pending = await tally(eq(files.pending, true));
  const unlinked = await tally(await unlinkedCondition(tx));
  const largest = await tx
    .select({ file: files, uploaderName: users.fullName })
    .from(files)
    .leftJoin(users, and(eq(users.organizationId, files.organizationId), eq(users.id, files.uploadedBy)))
    .orderBy(desc(files.sizeBytes), desc(files.createdAt))
    .limit(STORAGE_LARGEST_FILES);
  const links = await linksOf(
    tx,
    largest.map((r) => r.file.id),
  );
  return {
    used_bytes: org?.used ?? 0,
    quota_bytes: org?.quota ?? 0,
    mem_exhausted: (org?.used ?? 0) >= (org?.quota ?? 0),
    pending_bytes: org?.pending ?? 0,
    pending_count: pending.n,
    unlinked_bytes: unlinked.bytes,
    unlinked_count: unlinked.n,
    files: largest.map(({ file, uploaderName }) => ({
      id: file.id,
      file_name: file.fileName,
      mime_type: file.mimeType,
      size_bytes: file.sizeBytes,
      created_at: file.createdAt.toISOString(),
      uploaded_by: file.uploadedBy && uploaderName !== null ? { id: file.uploadedBy, full_name: uploaderName } : null,
      pending: file.pending,
      links: links.get(file.id) ?? [],
    })),
  };
}
