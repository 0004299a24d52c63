import { defineApi } from '../api/contract.js';
import { fileResponse, idParams, okResponse } from '../api/shared.js';
import { storageUsageResponse } from './schemas.js';

/** Stored files (storage.ts on the server): served to the signed-in members who may see them. */
export const filesApi = defineApi('files', {
  download: {
    method: 'GET',
    path: '/api/files/:id',
    access: { session: true },
    summary: 'Download a stored file',
    description:
      'Another organisation’s file, or one the reader may not see (an attachment of a record closed to them), is "not found". Raster images are served inline, every other type as an attachment.',
    params: idParams,
    response: fileResponse,
    file: 'always',
    // A guest's own uploads and the files of its own reports; the gates decide (platform/storage/gates.ts).
    guests: 'own',
  },
  usage: {
    method: 'GET',
    path: '/api/storage',
    access: { admin: true },
    summary: 'What uses the organisation’s storage: used, quota, guests’ pending uploads and the largest files with what links them',
    response: storageUsageResponse,
  },
  removeUnlinked: {
    method: 'DELETE',
    path: '/api/storage/files/:id',
    access: { admin: true },
    summary: 'Remove a file no record links, freeing its bytes',
    description: 'A file a record links is refused with 409: remove it from its record instead.',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },
});
