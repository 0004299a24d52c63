import { defineApi } from '../api/contract.js';
import { fileResponse, idParams } from '../api/shared.js';

/** Stored files (storage.ts on the server): served to the signed-in members who may see them. */
export const filesApi = defineApi('files', {
  download: {
    method: 'GET',
    path: '/api/files/:id',
    access: { session: true },
    summary: 'Download a stored file',
    description: 'Another organisation’s file, or one the reader may not see (an attachment of a record closed to them), is "not found".',
    params: idParams,
    response: fileResponse,
    file: 'always',
  },
});
