import { filesApi as api } from '@bulwark/domain';
import { AppError } from '../errors.js';
import { FileAnswer } from '../http/answers.js';
import type { Router } from '../http/route.js';
import { mayReadFile } from './gates.js';
import type { Storage } from './storage.js';

/**
 * Serves a stored file to a signed-in user of its organisation. Row-level security hides another
 * organisation's files; within the organisation, the gates of the modules that link an attachment
 * decide (`gates.ts`). A file the reader may not see is "not found" too, confirming nothing.
 * Module routes decide who may attach or remove files.
 */
export function fileRoutes(r: Router, storage: Storage = r.deps.storage) {
  r.route(api.download, async ({ tx, principal, params }) => {
    const row = await storage.find(tx, params.id);
    if (!row || !(await mayReadFile(tx, principal, row))) throw new AppError('not_found');
    const inline = row.mimeType.startsWith('image/') || row.mimeType === 'application/pdf';
    return new FileAnswer(storage.open(row.storageKey) as FileAnswer['body'], row.mimeType, row.fileName, {
      disposition: inline ? 'inline' : 'attachment',
      cache: 'private, max-age=300',
      size: row.sizeBytes,
    });
  });
}
