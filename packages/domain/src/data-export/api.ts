import { defineApi } from '../api/contract.js';
import { fileResponse, idParams } from '../api/shared.js';
import { dataExportListResponse, dataExportResponse } from './schemas.js';

const admin = { admin: true } as const;

/** The full export of the organisation's data: the organisation's administrators only. */
export const dataExportApi = defineApi('data-export', {
  list: {
    method: 'GET',
    path: '/api/data_exports',
    access: admin,
    summary: 'The organisation’s exports, newest first, with their progress',
    response: dataExportListResponse,
  },
  start: {
    method: 'POST',
    path: '/api/data_exports',
    access: admin,
    summary: 'Start an export of everything the organisation owns; a notification says when it is ready',
    response: dataExportResponse,
    status: 202,
    refusals: [409],
  },
  download: {
    method: 'GET',
    path: '/api/data_exports/:id/download',
    access: admin,
    summary: 'Download a ready export (a zip), within a week of its making',
    params: idParams,
    response: fileResponse,
    file: 'always',
    refusals: [409, 410],
  },
});
