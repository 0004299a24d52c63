import { filesApi as api } from '@bulwark/domain';
import { recordAudit } from '../audit.js';
import { AppError } from '../errors.js';
import { FileAnswer } from '../http/answers.js';
import type { Router } from '../http/route.js';
import { mayReadFile } from './gates.js';
import { cleanFileName, type Storage } from './storage.js';
import { removeUnlinked } from './sweep.js';
import { storageUsage } from './usage.js';

/**
 * Raster images are shown in the page; everything else (a PDF may carry JavaScript, an office file
 * macros) is only ever saved, never rendered by the browser from this origin.
 */
const INLINE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/**
 * Serves a stored file to a signed-in user of its organisation. Row-level security hides another
 * organisation's files; within the organisation, the gates of the modules that link an attachment
 * decide (`gates.ts`). A file the reader may not see is "not found" too, confirming nothing.
 * Module routes decide who may attach or remove files; the admin may see what uses the storage and
 * remove what no record links.
 */
export function fileRoutes(r: Router, storage: Storage = r.deps.storage) {
  r.route(api.download, async ({ tx, principal, params }) => {
    const row = await storage.find(tx, params.id);
    if (!row || !(await mayReadFile(tx, principal, row))) throw new AppError('not_found');
    // Cleaned again: names stored before the cleaning rule must not reach the browser either.
    return new FileAnswer(storage.open(row.storageKey) as FileAnswer['body'], row.mimeType, cleanFileName(row.fileName), {
      disposition: INLINE_TYPES.has(row.mimeType) ? 'inline' : 'attachment',
      cache: 'private, max-age=300',
      size: row.sizeBytes,
    });
  });

  r.route(api.usage, ({ tx }) => storageUsage(tx));

  r.route(api.removeUnlinked, async ({ tx, principal, params, afterCommit }) => {
    if (!(await storage.find(tx, params.id))) throw new AppError('not_found');
    const [removed] = await removeUnlinked(tx, storage, [params.id]);
    if (!removed) throw new AppError('conflict', { messageKey: 'storage.linked' });
    await recordAudit(tx, {
      actorUserId: principal.userId,
      action: 'file_removed',
      entity: 'File',
      entityId: removed.id,
      changes: { file_name: removed.fileName, size_bytes: removed.sizeBytes, pending: removed.pending },
    });
    afterCommit(removed.purge);
    return { ok: true as const };
  });
}
