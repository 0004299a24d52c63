import { UNLINKED_FILE_TTL_HOURS } from '@bulwark/domain';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { recordAudit } from '../audit.js';
import { inTenant, type Tx } from '../db/db.js';
import { files, organizations } from '../db/schema.js';
import type { AppDeps } from '../deps.js';
import { unlinkedCondition } from './links.js';
import { tenantMemoryEvent } from './memory-push.js';
import type { Storage } from './storage.js';

export const FILES_SWEEP_QUEUE = 'files-unlinked-sweep';
/** Files one organisation's transaction removes at most; the rest wait for the next round. */
const BATCH = 500;

export type RemovedFile = { id: string; fileName: string; sizeBytes: number; pending: boolean; purge: () => Promise<void> };

/**
 * Removes those of `ids` that no record links. The rows are locked first and the links read by a
 * later statement: a record linking one of them at the same moment either commits first (its link is
 * then seen and the file stays) or waits for this transaction and finds the file gone.
 */
export async function removeUnlinked(tx: Tx, storage: Storage, ids: readonly string[]): Promise<RemovedFile[]> {
  if (ids.length === 0) return [];
  const locked = await tx
    .select({ id: files.id })
    .from(files)
    .where(inArray(files.id, [...ids]))
    .orderBy(asc(files.id))
    .for('update');
  if (locked.length === 0) return [];
  const free = await tx
    .select({ id: files.id, fileName: files.fileName, sizeBytes: files.sizeBytes, pending: files.pending })
    .from(files)
    .where(
      and(
        inArray(
          files.id,
          locked.map((l) => l.id),
        ),
        await unlinkedCondition(tx),
      ),
    );
  const removed: RemovedFile[] = [];
  for (const f of free) {
    const gone = await storage.remove(tx, f.id);
    if (gone) removed.push({ ...f, purge: gone.purge });
  }
  return removed;
}

export type SweepResult = { removed: number; bytes: number };

/**
 * The hourly sweep: every file that no record links UNLINKED_FILE_TTL_HOURS after its upload goes,
 * guests' and members' alike, and its bytes leave the quota or the pending figure. Each organisation
 * is swept in its own transaction, then told its new figures (tenant_memory). A file any column of
 * the database references stays, whether or not its module registered the column (links.ts). `now`
 * is a parameter so tests can stand a day later.
 */
export async function sweepUnlinkedFiles(deps: Pick<AppDeps, 'db' | 'storage' | 'push'>, now: Date = new Date()): Promise<SweepResult> {
  const cutoff = new Date(now.getTime() - UNLINKED_FILE_TTL_HOURS * 3_600_000);
  const old = and(lt(files.createdAt, cutoff), await unlinkedCondition(deps.db.owner));
  // The owner connection finds the organisations with work; each is then swept in its tenant transaction.
  const orgs = await deps.db.owner.selectDistinct({ id: files.organizationId }).from(files).where(old);
  const result: SweepResult = { removed: 0, bytes: 0 };
  for (const org of orgs) {
    for (;;) {
      const swept = await inTenant(deps.db.app, org.id, async (tx) => {
        const ids = (await tx.select({ id: files.id }).from(files).where(old).orderBy(asc(files.id)).limit(BATCH)).map((r) => r.id);
        const removed = await removeUnlinked(tx, deps.storage, ids);
        if (removed.length === 0) return { removed, figures: null, more: false };
        const bytes = removed.reduce((sum, f) => sum + f.sizeBytes, 0);
        await recordAudit(tx, { actorUserId: null, action: 'files_swept', entity: 'File', changes: { count: removed.length, bytes } });
        const [figures] = await tx
          .select({
            organizationId: organizations.id,
            used: organizations.storageUsedBytes,
            quota: organizations.storageQuotaBytes,
            pending: organizations.storagePendingBytes,
          })
          .from(organizations)
          .where(eq(organizations.id, sql`app_current_org()`));
        return { removed, figures: figures ?? null, more: ids.length === BATCH };
      });
      await Promise.allSettled(swept.removed.map((f) => f.purge()));
      result.removed += swept.removed.length;
      result.bytes += swept.removed.reduce((sum, f) => sum + f.sizeBytes, 0);
      if (swept.figures) deps.push.toOrganization(org.id, tenantMemoryEvent(swept.figures));
      if (!swept.more) break;
    }
  }
  return result;
}
