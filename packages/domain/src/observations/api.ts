import { defineApi } from '../api/contract.js';
import { fileResponse, idParams, okResponse } from '../api/shared.js';
import {
  observationAttachmentResponse,
  observationCountsQuery,
  observationCreateBody,
  observationCreatedResponse,
  observationFormDataResponse,
  observationGuestBody,
  observationGuestFormDataResponse,
  observationHazardTypesResponse,
  observationImportResultResponse,
  observationListQuery,
  observationListResponse,
  observationResponse,
  observationStatusCountsResponse,
  observationUpdateBody,
} from './schemas.js';

const read = { subject: 'Observation', action: 'read' } as const;
const create = { subject: 'Observation', action: 'create' } as const;
/** A guest reports and follows its own reports: the handler narrows these to them (GuestAccess). */
const own = 'own' as const;

/** Observations (spec 001 §7): the list, the form data, reports by staff and guests, import and the PDF. */
export const observationsApi = defineApi('observations', {
  list: {
    method: 'GET',
    path: '/api/v2/observations',
    access: read,
    summary:
      'Observations: a page (15 by default) filtered by status tab, site, type, risk level, local date range and keywords (a search counts up to 1,000 matches: pagination.total_capped); export_to_excel=true gives exactly the filtered rows as a workbook',
    query: observationListQuery,
    response: observationListResponse,
    file: 'on_export',
    exportJob: true,
    guests: own,
  },
  statusCounts: {
    method: 'GET',
    path: '/api/v2/observations/period_status_counts',
    access: read,
    summary: 'How many observations each status tab holds for the period and filters (a search counts up to 1,000 matches: counts_capped)',
    query: observationCountsQuery,
    response: observationStatusCountsResponse,
    guests: own,
  },
  formData: {
    method: 'GET',
    path: '/api/observations/obs_data',
    access: read,
    summary:
      'What the observation form offers: active sites with their areas, types with categories, risk levels, control types, action categories, people',
    response: observationFormDataResponse,
    guests: own,
  },
  hazardTypes: {
    method: 'GET',
    path: '/api/observations/obs_hazard_types',
    access: read,
    summary: 'Observation types with their active categories and sub-categories',
    response: observationHazardTypesResponse,
  },
  guestFormData: {
    method: 'GET',
    path: '/api/observations/outer_obs_data',
    access: { public: true },
    summary: "The signed-out guest form of the sub-domain's organisation: its active sites, types and risk levels (no people)",
    response: observationGuestFormDataResponse,
  },
  uploadAttachment: {
    method: 'POST',
    path: '/api/observations/attachments',
    // Anyone who may create or update observations; the handler checks which.
    access: { session: true },
    summary: 'Upload a photo or document (multipart field "file"; type checked by content, 10 MB, counted against the storage quota)',
    upload: 'attachment',
    response: observationAttachmentResponse,
    status: 201,
    guests: own,
  },
  removeAttachment: {
    method: 'DELETE',
    path: '/api/observations/attachments/:id',
    access: { session: true },
    summary: "Remove one's own upload that no observation uses yet (a linked file is removed by editing the observation)",
    params: idParams,
    response: okResponse,
    guests: own,
  },
  guestUploadAttachment: {
    method: 'POST',
    path: '/api/observations/outer/attachments',
    access: { public: true },
    summary: 'A signed-out guest uploads a photo or document for their report (rate-limited per address)',
    upload: 'attachment',
    response: observationAttachmentResponse,
    status: 201,
    refusals: [404, 429],
  },
  guestCreate: {
    method: 'POST',
    path: '/api/observations/outer',
    access: { public: true },
    summary:
      'A signed-out guest reports an observation to the organisation of the sub-domain (optionally anonymous; rate-limited per address)',
    body: observationGuestBody,
    response: observationCreatedResponse,
    status: 201,
    refusals: [404, 429],
  },
  importTemplate: {
    method: 'GET',
    path: '/api/observations_bulk_upload/template',
    access: create,
    summary: 'The Excel template of the import, with a sheet of valid sites, areas, types, categories, risk levels and control types',
    response: fileResponse,
    file: 'always',
  },
  import: {
    method: 'POST',
    path: '/api/observations_bulk_upload',
    access: create,
    summary:
      'Import every observation of a workbook, or none when any row is wrong (multipart field "file"); errors name the row and column (`rows` of the 400 answer)',
    upload: 'workbook',
    response: observationImportResultResponse,
  },
  get: {
    method: 'GET',
    path: '/api/observations/:id',
    access: read,
    summary: 'One observation with its actions, attachments, history and what the requester may do',
    params: idParams,
    response: observationResponse,
    guests: own,
  },
  reportPdf: {
    method: 'GET',
    path: '/api/observations/:id/report.pdf',
    access: read,
    summary: "The observation as a PDF report in the requester's language",
    params: idParams,
    response: fileResponse,
    file: 'always',
  },
  create: {
    method: 'POST',
    path: '/api/observations',
    access: create,
    summary: 'Report an observation, with its actions when an action is required (all in one transaction)',
    body: observationCreateBody,
    response: observationCreatedResponse,
    status: 201,
    guests: own,
  },
  update: {
    method: 'PATCH',
    path: '/api/observations/:id',
    // The service checks the right each part needs: update (fields, actions), close (closing).
    access: read,
    summary:
      'Edit an observation, add actions, or close it (close: { remarks }; needs the close right and every action completed or closed)',
    params: idParams,
    body: observationUpdateBody,
    response: observationResponse,
    refusals: [409],
  },
  remove: {
    method: 'DELETE',
    path: '/api/observations/:id',
    access: { subject: 'Observation', action: 'delete' },
    summary: 'Delete an observation that has no actions, with its attachments',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },
});
