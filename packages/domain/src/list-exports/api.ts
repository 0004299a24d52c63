import { defineApi } from '../api/contract.js';
import { fileResponse, idParams } from '../api/shared.js';
import { listExportResponse } from './schemas.js';

/**
 * A large list export, started by a list's `export_to_excel=true` (the 202 answer). Only the person who
 * started it reaches it: anyone else, an administrator too, is answered 404.
 */
export const listExportsApi = defineApi('list-exports', {
  get: {
    method: 'GET',
    path: '/api/list_exports/:id',
    access: { session: true },
    summary: 'One of your list exports, with its progress (rows written of rows to write)',
    params: idParams,
    response: listExportResponse,
  },
  download: {
    method: 'GET',
    path: '/api/list_exports/:id/download',
    access: { session: true },
    summary: 'Download one of your finished list exports (a workbook), within a week of its making',
    params: idParams,
    response: fileResponse,
    file: 'always',
    refusals: [409, 410],
  },
});
