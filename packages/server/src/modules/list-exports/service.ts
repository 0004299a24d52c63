import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LIST_EXPORT_INLINE_MAX, LIST_EXPORT_KEEP_DAYS, translate, type Language, type ListExport } from '@bulwark/domain';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { inTenant, type Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { FileAnswer, StartedAnswer, XLSX_TYPE } from '../../platform/http/answers.js';
import type { AfterCommit } from '../../platform/http/route.js';
import { createNotification } from '../notifications/service.js';
import { listLink, openListExport, type ListName } from './kinds.js';
import type { ListExportSource } from './source.js';
import { listExports } from './tables.js';

export const LIST_EXPORT_QUEUE = 'list-export';
export const LIST_EXPORT_SWEEP_QUEUE = 'list-export-sweep';
/** An export still "running" this long after it started died with its process: it is marked failed. */
const STALE_HOURS = 6;
/** Progress is stored at most this often (each store is a write): about a hundred steps per export. */
const PROGRESS_STEPS = 100;

type Row = typeof listExports.$inferSelect;

function view(row: Row): ListExport {
  return {
    id: row.id,
    status: row.status,
    rows_done: row.rowsDone,
    rows_total: row.rowsTotal,
    file_name: row.fileName,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    size_bytes: row.sizeBytes,
  };
}

/** Where a list export's workbook is kept, under the storage driver's folder. */
export function listExportKey(organizationId: string, id: string): string {
  return `list-exports/${organizationId}/${id}.xlsx`;
}

type Request = {
  tx: Tx;
  deps: Pick<AppDeps, 'jobs'>;
  principal: Principal;
  lang: Language;
  afterCommit: (work: AfterCommit) => void;
};

/**
 * A list's `export_to_excel=true` (issue 13). The rows are counted first; up to LIST_EXPORT_INLINE_MAX
 * the workbook is written in the request, page by page to a file in the request's transaction (so a
 * failure is an error answer, not a cut file, and no connection waits on a slow client), then streamed
 * out. Past it a job writes it (`runListExport`) and the answer is 202 with the export started.
 */
export async function exportList(
  req: Request,
  list: ListName,
  query: Record<string, unknown>,
  source: ListExportSource,
): Promise<FileAnswer | StartedAnswer> {
  const total = await source.count();
  if (total > LIST_EXPORT_INLINE_MAX) return startListExport(req, list, query, source.fileName, total);
  const spool = await mkdtemp(path.join(tmpdir(), 'bulwark-list-'));
  try {
    const file = path.join(spool, 'export.xlsx');
    await source.write(file);
    const { size } = await stat(file);
    const body = createReadStream(file);
    // Gone once sent, or once the client has gone.
    body.once('close', () => void rm(spool, { recursive: true, force: true }));
    return new FileAnswer(body, XLSX_TYPE, `${source.fileName}.xlsx`, { size });
  } catch (err) {
    await rm(spool, { recursive: true, force: true });
    throw err;
  }
}

async function startListExport(req: Request, list: ListName, query: Record<string, unknown>, fileName: string, total: number) {
  const { tx, deps, principal: p, lang, afterCommit } = req;
  const [row] = await tx
    .insert(listExports)
    .values({ requestedBy: p.userId, list, query, language: lang, rowsTotal: total, fileName: `${fileName}.xlsx` })
    .returning();
  const started = row!;
  // Built by a job worker (any node running jobs); a long build must not be taken for a dead one.
  afterCommit(() =>
    deps.jobs?.send(
      LIST_EXPORT_QUEUE,
      { organizationId: p.organizationId, id: started.id },
      { retryLimit: 0, expireInSeconds: STALE_HOURS * 3600 },
    ),
  );
  return new StartedAnswer({ export: { id: started.id, status: started.status, rows_total: total } });
}

/** Only its requester reaches an export: anyone else hears "not found", as for an unknown id. */
async function ownExport(tx: Tx, p: Principal, id: string): Promise<Row> {
  const [row] = await tx
    .select()
    .from(listExports)
    .where(and(eq(listExports.id, id), eq(listExports.requestedBy, p.userId)));
  if (!row) throw new AppError('not_found');
  return row;
}

export async function getListExport(tx: Tx, p: Principal, id: string): Promise<ListExport> {
  return view(await ownExport(tx, p, id));
}

export async function downloadListExport(tx: Tx, deps: Pick<AppDeps, 'storage'>, p: Principal, id: string, now = new Date()) {
  const row = await ownExport(tx, p, id);
  if (row.status === 'expired' || (row.expiresAt && row.expiresAt <= now))
    throw new AppError('link_expired', { messageKey: 'listExport.expired' });
  if (row.status !== 'ready' || !row.storageKey) throw new AppError('conflict', { messageKey: 'listExport.notReady' });
  return new FileAnswer(deps.storage.open(row.storageKey) as never, XLSX_TYPE, row.fileName, { size: row.sizeBytes ?? undefined });
}

type JobDeps = Pick<AppDeps, 'db' | 'storage' | 'push'>;

/**
 * The job `list-export` (`now` for tests): writes the list's rows as they stood when it began (one
 * read-only snapshot), storing its progress in rows as it goes, keeps the workbook for a week and tells
 * the requester (a notification with the link) when it is ready or has failed.
 */
export async function runListExport(deps: JobDeps, job: { organizationId: string; id: string }, now = new Date()): Promise<void> {
  const { organizationId, id } = job;
  const claimed = await inTenant(deps.db.app, organizationId, (tx) =>
    tx
      .update(listExports)
      .set({ status: 'running', startedAt: now, rowsDone: 0 })
      .where(and(eq(listExports.id, id), eq(listExports.status, 'queued')))
      .returning(),
  );
  const row = claimed[0];
  if (!row) return;
  let stored = 0;
  const step = Math.max(1, Math.floor(row.rowsTotal / PROGRESS_STEPS));
  const progress = async (written: number) => {
    if (written - stored < step) return;
    stored = written;
    // Only while it runs: a late update must not move a finished export back.
    await inTenant(deps.db.app, organizationId, (tx) =>
      tx
        .update(listExports)
        .set({ rowsDone: written })
        .where(and(eq(listExports.id, id), eq(listExports.status, 'running'))),
    );
  };
  const key = listExportKey(organizationId, id);
  const spool = await mkdtemp(path.join(tmpdir(), 'bulwark-list-'));
  try {
    const file = path.join(spool, 'export.xlsx');
    const written = await deps.db.app.transaction(
      async (tx) => {
        await tx.execute(sql`select set_config('app.organization_id', ${organizationId}, true)`);
        return openListExport(tx, row.list, row.query, row.language, row.requestedBy).write(file, progress);
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    const { size } = await stat(file);
    // Put where every stored file goes (FILES_DIR or the S3 bucket), so that any node serves the download.
    await deps.storage.blobs.put(key, { kind: 'spooled', path: file, size }, XLSX_TYPE);
    const expiresAt = new Date(now.getTime() + LIST_EXPORT_KEEP_DAYS * 86_400_000);
    await inTenant(deps.db.app, organizationId, async (tx) => {
      await tx
        .update(listExports)
        .set({
          status: 'ready',
          rowsDone: written,
          rowsTotal: written,
          storageKey: key,
          sizeBytes: size,
          finishedAt: new Date(),
          expiresAt,
        })
        .where(eq(listExports.id, id));
      await notifyRequester(tx, { ...row, rowsTotal: written }, 'ready', expiresAt);
    });
  } catch (err) {
    await deps.storage.purge(key).catch(() => {});
    await inTenant(deps.db.app, organizationId, async (tx) => {
      await tx
        .update(listExports)
        .set({ status: 'failed', finishedAt: new Date(), error: String(err instanceof Error ? err.message : err).slice(0, 500) })
        .where(eq(listExports.id, id));
      await notifyRequester(tx, row, 'failed', null);
    });
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
  if (row.requestedBy) deps.push.toUser(row.requestedBy, { channel: 'notification', change: 'created' });
}

async function notifyRequester(tx: Tx, row: Row, outcome: 'ready' | 'failed', until: Date | null): Promise<void> {
  if (!row.requestedBy) return;
  const lang = row.language;
  const vars = { file: row.fileName, total: row.rowsTotal, until: until ? until.toISOString().slice(0, 10) : '' };
  await createNotification(tx, {
    userId: row.requestedBy,
    title: translate(lang, `listExport.${outcome}Title`),
    body: translate(lang, `listExport.${outcome}Body`, vars),
    // The list it came from, which shows this export's download (the web's ExportButton).
    link: `${listLink(row.list)}?export=${row.id}`,
  });
}

/**
 * The hourly sweep: workbooks past their week are deleted and marked expired, and an export whose
 * process died while writing is marked failed. The owner connection finds the organisations with work;
 * each is then swept in its tenant transaction.
 */
export async function sweepListExports(deps: Pick<AppDeps, 'db' | 'storage'>, now = new Date()): Promise<void> {
  const staleBefore = new Date(now.getTime() - STALE_HOURS * 3_600_000);
  const due = or(
    and(eq(listExports.status, 'ready'), lt(listExports.expiresAt, now)),
    and(inArray(listExports.status, ['queued', 'running']), lt(listExports.createdAt, staleBefore)),
  );
  const orgs = await deps.db.owner.selectDistinct({ id: listExports.organizationId }).from(listExports).where(due);
  for (const org of orgs) {
    const keys = await inTenant(deps.db.app, org.id, async (tx) => {
      await tx
        .update(listExports)
        .set({ status: 'failed', finishedAt: now, error: 'stale' })
        .where(and(inArray(listExports.status, ['queued', 'running']), lt(listExports.createdAt, staleBefore)));
      const expired = await tx
        .select({ id: listExports.id, key: listExports.storageKey })
        .from(listExports)
        .where(and(eq(listExports.status, 'ready'), lt(listExports.expiresAt, now)));
      if (expired.length > 0) {
        await tx
          .update(listExports)
          .set({ status: 'expired', storageKey: null })
          .where(
            inArray(
              listExports.id,
              expired.map((e) => e.id),
            ),
          );
      }
      return expired.map((e) => e.key).filter((k): k is string => k !== null);
    });
    for (const key of keys) await deps.storage.purge(key);
  }
}
