import type { AuditFile } from '@bulwark/domain';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { files } from '../../platform/db/schema.js';
import { fileUrl } from '../../platform/storage/storage.js';
import type { AuditsDeps } from './common.js';
import { auditFiles, type AuditFileLinkKind } from './tables.js';

/** The purposes of the audits' own uploads (FILE_RULES: JPG, PNG, GIF and PPT, DOC, XLS under 1 MB). */
export const AUDIT_UPLOAD_PURPOSES = ['auditImage', 'auditDocument'] as const;

/** Files by id as the API shows them. */
export async function fileViews(tx: Tx, ids: readonly string[]): Promise<Map<string, AuditFile>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: files.id, fileName: files.fileName, mimeType: files.mimeType, size: files.sizeBytes })
    .from(files)
    .where(inArray(files.id, [...new Set(ids)]));
  return new Map(
    rows.map((f) => [f.id, { id: f.id, file_name: f.fileName, mime_type: f.mimeType, size_bytes: Number(f.size), url: fileUrl(f.id) }]),
  );
}

export type LinkOwner = { auditId: string; kind: AuditFileLinkKind; questionId?: string | null; findingId?: string | null };

const ownerWhere = (o: LinkOwner) =>
  and(
    eq(auditFiles.auditId, o.auditId),
    eq(auditFiles.kind, o.kind),
    o.questionId ? eq(auditFiles.questionId, o.questionId) : isNull(auditFiles.questionId),
    o.findingId ? eq(auditFiles.findingId, o.findingId) : isNull(auditFiles.findingId),
  );

/** The files linked to one owner (an answer, the audit's notes, a finding). */
export async function linkedFiles(tx: Tx, owner: LinkOwner): Promise<string[]> {
  return (await tx.select({ id: auditFiles.fileId }).from(auditFiles).where(ownerWhere(owner))).map((r) => r.id);
}

/**
 * Whether each of `ids` may be linked to `owner`: already linked to it, or an upload of the actor for
 * audits that nothing links yet. Answers the ids that may not.
 */
export async function refusedFiles(
  tx: Tx,
  actorId: string,
  owner: LinkOwner,
  ids: readonly string[],
  mimePrefix?: string,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const mine = new Set(await linkedFiles(tx, owner));
  const fresh = ids.filter((id) => !mine.has(id));
  const ok = new Set(mine);
  if (fresh.length) {
    const rows = await tx
      .select({ id: files.id, mime: files.mimeType })
      .from(files)
      .leftJoin(auditFiles, and(eq(auditFiles.organizationId, files.organizationId), eq(auditFiles.fileId, files.id)))
      .where(
        and(
          inArray(files.id, fresh),
          eq(files.uploadedBy, actorId),
          inArray(files.purpose, [...AUDIT_UPLOAD_PURPOSES]),
          isNull(auditFiles.fileId),
        ),
      );
    for (const r of rows) if (!mimePrefix || r.mime.startsWith(mimePrefix)) ok.add(r.id);
  }
  return ids.filter((id) => !ok.has(id));
}

/**
 * Makes `ids` the files of `owner`: new ones are linked, the ones left out are removed with their bytes
 * (after the commit, through the returned purges).
 */
export async function setLinkedFiles(tx: Tx, deps: Pick<AuditsDeps, 'storage'>, owner: LinkOwner, ids: readonly string[]) {
  const before = await linkedFiles(tx, owner);
  const purges: Array<() => Promise<void>> = [];
  for (const id of before.filter((f) => !ids.includes(f))) {
    await tx.delete(auditFiles).where(and(eq(auditFiles.auditId, owner.auditId), eq(auditFiles.fileId, id)));
    const removed = await deps.storage.remove(tx, id);
    if (removed) purges.push(removed.purge);
  }
  const added = ids.filter((f) => !before.includes(f));
  if (added.length)
    await tx.insert(auditFiles).values(
      added.map((fileId) => ({
        auditId: owner.auditId,
        fileId,
        kind: owner.kind,
        questionId: owner.questionId ?? null,
        findingId: owner.findingId ?? null,
      })),
    );
  return purges;
}

/** Every file linked to an audit, by kind and owner. */
export async function filesOfAudit(tx: Tx, auditId: string) {
  return tx.select().from(auditFiles).where(eq(auditFiles.auditId, auditId));
}
