import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DATA_EXPORT_KEEP_DAYS, DATA_EXPORTS_LISTED, translate, type DataExport, type Language } from '@bulwark/domain';
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Principal } from '../../platform/auth/principal.js';
import { inTenant, type Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { FileAnswer } from '../../platform/http/answers.js';
import { createNotification } from '../notifications/service.js';
import { buildArchive } from './archive.js';
import { dataExports } from './tables.js';

export const EXPORT_QUEUE = 'data-export';
export const EXPORT_SWEEP_QUEUE = 'data-export-sweep';
/** An export still "running" this long after it started died with its process: it is marked failed. */
const STALE_HOURS = 6;

type Row = typeof dataExports.$inferSelect;

function view(row: Row, requestedByName: string | null): DataExport {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    requested_by_name: requestedByName,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    size_bytes: row.sizeBytes,
    error: row.error,
  };
}

export async function listExports(tx: Tx): Promise<DataExport[]> {
  const rows = await tx
    .select({ row: dataExports, name: users.fullName })
    .from(dataExports)
    .leftJoin(users, and(eq(users.organizationId, dataExports.organizationId), eq(users.id, dataExports.requestedBy)))
    .orderBy(desc(dataExports.createdAt), desc(dataExports.id))
    .limit(DATA_EXPORTS_LISTED);
  return rows.map((r) => view(r.row, r.name));
}

/** Queues an export; one at a time per organisation (the partial unique index holds it under races too). */
export async function startExport(tx: Tx, p: Principal): Promise<DataExport> {
  const [busy] = await tx
    .select({ id: dataExports.id })
    .from(dataExports)
    .where(inArray(dataExports.status, ['queued', 'running']));
  if (busy) throw new AppError('conflict', { messageKey: 'dataExport.busy' });
  // Two starts at once both pass the check above: the index keeps the second out, answered as the first check would.
  const [row] = await tx.insert(dataExports).values({ requestedBy: p.userId }).onConflictDoNothing().returning();
  if (!row) throw new AppError('conflict', { messageKey: 'dataExport.busy' });
  await recordAudit(tx, { actorUserId: p.userId, action: 'data_export_started', entity: 'DataExport', entityId: row.id });
  return view(row, p.fullName);
}

/** Where an organisation's archive is kept, under the storage driver's folder. */
export function archiveKey(organizationId: string, id: string): string {
  return `exports/${organizationId}/${id}.zip`;
}

export async function downloadExport(
  tx: Tx,
  deps: Pick<AppDeps, 'storage'>,
  p: Principal,
  id: string,
  now = new Date(),
): Promise<FileAnswer> {
  const [row] = await tx.select().from(dataExports).where(eq(dataExports.id, id));
  if (!row) throw new AppError('not_found');
  if (row.status === 'expired' || (row.expiresAt && row.expiresAt <= now))
    throw new AppError('link_expired', { messageKey: 'dataExport.expired' });
  if (row.status !== 'ready' || !row.storageKey) throw new AppError('conflict', { messageKey: 'dataExport.notReady' });
  await recordAudit(tx, { actorUserId: p.userId, action: 'data_export_downloaded', entity: 'DataExport', entityId: id });
  const [org] = await tx.select({ sub: organizations.subDomainName }).from(organizations).where(eq(organizations.id, p.organizationId));
  const day = row.createdAt.toISOString().slice(0, 10);
  return new FileAnswer(deps.storage.open(row.storageKey) as never, 'application/zip', `${org?.sub ?? 'export'}-${day}.zip`, {
    size: row.sizeBytes ?? undefined,
  });
}

type ExportDeps = Pick<AppDeps, 'db' | 'storage' | 'push'>;

/**
 * The job `data-export` (`now` for tests): builds the archive with progress (stored, and pushed to
 * whoever asked), keeps it for a week, and tells the requester when it is ready or has failed.
 */
export async function runExport(deps: ExportDeps, job: { organizationId: string; id: string }, now = new Date()): Promise<void> {
  const { organizationId, id } = job;
  const claimed = await inTenant(deps.db.app, organizationId, (tx) =>
    tx
      .update(dataExports)
      .set({ status: 'running', startedAt: now, progress: 0 })
      .where(and(eq(dataExports.id, id), eq(dataExports.status, 'queued')))
      .returning(),
  );
  const row = claimed[0];
  if (!row) return;
  const tell = (change: 'updated') => {
    if (row.requestedBy) deps.push.toUser(row.requestedBy, { channel: 'data_exports', change, id });
  };
  let shown = 0;
  const progress = async (fraction: number) => {
    const percent = Math.min(99, Math.floor(fraction * 100));
    if (percent <= shown) return;
    shown = percent;
    // Only while it runs: a late update must not move a finished export's 100 back.
    await inTenant(deps.db.app, organizationId, (tx) =>
      tx
        .update(dataExports)
        .set({ progress: percent })
        .where(and(eq(dataExports.id, id), eq(dataExports.status, 'running'))),
    );
    tell('updated');
  };
  const key = archiveKey(organizationId, id);
  // Built on this node's disk, then put where every stored file goes (FILES_DIR or the S3 bucket), so
  // that any node can serve the download, whichever node's job worker built it.
  const spool = await mkdtemp(path.join(tmpdir(), 'bulwark-archive-'));
  try {
    const built = path.join(spool, 'archive.zip');
    const size = await buildArchive(deps, organizationId, built, progress, now);
    await deps.storage.blobs.put(key, { kind: 'spooled', path: built, size }, 'application/zip');
    const expiresAt = new Date(now.getTime() + DATA_EXPORT_KEEP_DAYS * 86_400_000);
    await inTenant(deps.db.app, organizationId, async (tx) => {
      await tx
        .update(dataExports)
        .set({ status: 'ready', progress: 100, storageKey: key, sizeBytes: size, finishedAt: new Date(), expiresAt })
        .where(eq(dataExports.id, id));
      await notifyRequester(tx, row, 'ready', expiresAt);
    });
  } catch (err) {
    await deps.storage.purge(key).catch(() => {});
    await inTenant(deps.db.app, organizationId, async (tx) => {
      await tx
        .update(dataExports)
        .set({ status: 'failed', finishedAt: new Date(), error: String(err instanceof Error ? err.message : err).slice(0, 500) })
        .where(eq(dataExports.id, id));
      await notifyRequester(tx, row, 'failed', null);
    });
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
  tell('updated');
  if (row.requestedBy) deps.push.toUser(row.requestedBy, { channel: 'notification', change: 'created' });
}

async function notifyRequester(tx: Tx, row: Row, outcome: 'ready' | 'failed', until: Date | null): Promise<void> {
  if (!row.requestedBy) return;
  const [person] = await tx.select({ locale: users.locale }).from(users).where(eq(users.id, row.requestedBy));
  const [org] = await tx
    .select({ name: organizations.name })
    .from(organizations)
    .where(sql`${organizations.id} = app_current_org()`);
  const lang: Language = person?.locale ?? 'en';
  const vars = { organization: org?.name ?? '', until: until ? until.toISOString().slice(0, 10) : '' };
  await createNotification(tx, {
    userId: row.requestedBy,
    title: translate(lang, `dataExport.${outcome}Title`),
    body: translate(lang, `dataExport.${outcome}Body`, vars),
    link: '/integrations/export',
  });
}

/**
 * The hourly sweep: archives past their week are deleted and marked expired, and an export whose
 * process died while building is marked failed, so that a new one may start. The owner connection
 * finds the organisations with work; each is then swept in its tenant transaction.
 */
export async function sweepExports(deps: Pick<AppDeps, 'db' | 'storage'>, now = new Date()): Promise<void> {
  const staleBefore = new Date(now.getTime() - STALE_HOURS * 3_600_000);
  const due = or(
    and(eq(dataExports.status, 'ready'), lt(dataExports.expiresAt, now)),
    and(eq(dataExports.status, 'running'), lt(dataExports.startedAt, staleBefore)),
  );
  const orgs = await deps.db.owner.selectDistinct({ id: dataExports.organizationId }).from(dataExports).where(due);
  for (const org of orgs) {
    const keys = await inTenant(deps.db.app, org.id, async (tx) => {
      await tx
        .update(dataExports)
        .set({ status: 'failed', finishedAt: now, error: 'stale' })
        .where(and(eq(dataExports.status, 'running'), lt(dataExports.startedAt, staleBefore)));
      const expired = await tx
        .select({ id: dataExports.id, key: dataExports.storageKey })
        .from(dataExports)
        .where(and(eq(dataExports.status, 'ready'), lt(dataExports.expiresAt, now)));
      if (expired.length > 0) {
        await tx
          .update(dataExports)
          .set({ status: 'expired', storageKey: null })
          .where(
            inArray(
              dataExports.id,
              expired.map((e) => e.id),
            ),
          );
      }
      return expired.map((e) => e.key).filter((k): k is string => k !== null);
    });
    for (const key of keys) await deps.storage.purge(key);
  }
}
