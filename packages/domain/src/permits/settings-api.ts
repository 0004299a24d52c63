import { defineApi, type EndpointDef } from '../api/contract.js';
import { fileResponse, idParams, okResponse } from '../api/shared.js';
import {
  boardLinkCreateBody,
  boardLinkCreatedResponse,
  boardLinksResponse,
  permitBoardQuery,
  permitBoardResponse,
  permitPublicStatusResponse,
  permitTokenParams,
} from './board.js';
import {
  masterCreateBody,
  masterEntryResponse,
  masterImportResultResponse,
  masterListQuery,
  masterUpdateBody,
  masterListResponse,
} from './masters.js';
import type { MasterKind } from './model.js';
import {
  recentWorkersQuery,
  workerCreateBody,
  workerListQuery,
  workerListResponse,
  workerPhotoResponse,
  workerResponse,
  workersResponse,
  workerUpdateBody,
} from './workers.js';

/**
 * Worker profiles (/worker-profile, Permit Form Setting read; spec 000 §7 find_recent_workers). A
 * worker is created in the request flow (Permit create) or on the settings screen; edited and switched
 * off on the settings screen (Permit Form Setting update).
 */
export const permitWorkersApi = defineApi('permit-workers', {
  recent: {
    method: 'GET',
    path: '/api/v1/work_profile/find_recent_workers',
    access: { subject: 'Permit', action: 'read' },
    summary: 'Active workers matching the value (name, phone or ID), the ones the requester and then anyone used last first',
    query: recentWorkersQuery,
    response: workersResponse,
  },
  list: {
    method: 'GET',
    path: '/api/work_profiles',
    access: { subject: 'Permit Form Setting', action: 'read' },
    summary: 'Worker profiles: a page by name, phone or ID, active or not; export_to_excel=true gives the filtered rows',
    query: workerListQuery,
    response: workerListResponse,
    file: 'on_export',
    exportJob: true,
  },
  uploadPhoto: {
    method: 'POST',
    path: '/api/work_profiles/photo',
    access: { subject: 'Permit', action: 'create' },
    summary: 'Upload a worker’s photo (multipart field "file": JPEG or PNG under 500 KB); name it in photo_id',
    upload: 'photo',
    response: workerPhotoResponse,
    status: 201,
  },
  create: {
    method: 'POST',
    path: '/api/work_profiles',
    access: { subject: 'Permit', action: 'create' },
    summary: 'A worker profile: name, photo, age, phone, ID, gender (in the request flow or on the settings screen)',
    body: workerCreateBody,
    response: workerResponse,
    status: 201,
    refusals: [409],
  },
  update: {
    method: 'PATCH',
    path: '/api/work_profiles/:id',
    access: { subject: 'Permit Form Setting', action: 'update' },
    summary: 'Edit a worker profile, or switch it off (permits that named the worker keep them)',
    params: idParams,
    body: workerUpdateBody,
    response: workerResponse,
    refusals: [409],
  },
});

const admin = { admin: true } as const;

/** The five calls of one master (admin only, spec 000 §6): list, create, edit or switch off, import and its template. */
function masterDefs<const P extends string>(resource: P, what: string) {
  const path = `/api/${resource}` as const;
  return {
    list: {
      method: 'GET',
      path,
      access: admin,
      summary: `${what}: a page by name, active or not; export_to_excel=true gives the filtered rows`,
      query: masterListQuery,
      response: masterListResponse,
      file: 'on_export',
      exportJob: true,
    },
    create: {
      method: 'POST',
      path,
      access: admin,
      summary: `Add an entry to ${what.toLowerCase()}`,
      body: masterCreateBody,
      response: masterEntryResponse,
      status: 201,
      refusals: [409],
    },
    update: {
      method: 'PATCH',
      path: `${path}/:id`,
      access: admin,
      summary: `Edit an entry of ${what.toLowerCase()}, or switch it off`,
      params: idParams,
      body: masterUpdateBody,
      response: masterEntryResponse,
      refusals: [409],
    },
    importTemplate: {
      method: 'GET',
      path: `${path}/import_template`,
      access: admin,
      summary: `The Excel template of the ${what.toLowerCase()} import`,
      response: fileResponse,
      file: 'always',
    },
    import: {
      method: 'POST',
      path: `${path}/import`,
      access: admin,
      summary: `Import ${what.toLowerCase()} from a workbook (multipart field "file"): new names are added, known ones updated; every row or none`,
      upload: 'workbook',
      response: masterImportResultResponse,
    },
  } as const satisfies Record<string, EndpointDef>;
}

export const hierarchyOfControlsApi = defineApi('hierarchy-of-controls', masterDefs('hierarchy_of_controls', 'Hierarchy of controls'));
export const activityMastersApi = defineApi('activity-masters', masterDefs('activity_masters', 'Activity master'));
export const equipmentMastersApi = defineApi('equipment-masters', masterDefs('equipment_masters', 'Equipment master'));
export const rescueMastersApi = defineApi('rescue-masters', masterDefs('rescue_masters', 'Rescue master'));

/** Each master's contracts, by kind. */
export const MASTER_APIS = {
  hierarchy_of_controls: hierarchyOfControlsApi,
  activity: activityMastersApi,
  equipment: equipmentMastersApi,
  rescue: rescueMastersApi,
} as const satisfies Record<MasterKind, unknown>;

/**
 * The live permit board (beyond the spec): for signed-in readers of permits, and for a wall screen by
 * a read-only board link an admin makes and revokes; and the public status page of one permit.
 */
export const permitBoardsApi = defineApi('permit-boards', {
  board: {
    method: 'GET',
    path: '/api/permit_board',
    access: { subject: 'Permit', action: 'read' },
    summary: 'The live board of a site: every permit active now or in the next 24 hours, by area, with type, workers, issuer and time left',
    query: permitBoardQuery,
    response: permitBoardResponse,
  },
  links: {
    method: 'GET',
    path: '/api/permit_board_links',
    access: admin,
    summary: 'The board links (read-only, one site each) and whether they are revoked',
    response: boardLinksResponse,
  },
  createLink: {
    method: 'POST',
    path: '/api/permit_board_links',
    access: admin,
    summary: 'Make a read-only board link for one site; its token is shown in this answer only',
    body: boardLinkCreateBody,
    response: boardLinkCreatedResponse,
    status: 201,
    refusals: [409],
  },
  revokeLink: {
    method: 'DELETE',
    path: '/api/permit_board_links/:id',
    access: admin,
    summary: 'Revoke a board link: its screen is refused from now on',
    params: idParams,
    response: okResponse,
  },
  linkBoard: {
    method: 'GET',
    path: '/api/permit_boards/:token',
    access: { public: true },
    summary: 'A board link’s board, at the organisation’s address: the one site’s live permits (read-only; no ids; refused once revoked)',
    params: permitTokenParams,
    response: permitBoardResponse,
    refusals: [404],
  },
  publicStatus: {
    method: 'GET',
    path: '/api/permit_status/:token',
    access: { public: true },
    summary: 'The public status of one permit, by the token of its printed QR code: number, type, site and area, validity and status only',
    params: permitTokenParams,
    response: permitPublicStatusResponse,
    refusals: [404],
  },
});
