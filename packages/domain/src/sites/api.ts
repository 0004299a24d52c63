import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import {
  activeSitesResponse,
  manpowerQuery,
  manpowerResponseSchema,
  manpowerUpdateSchema,
  siteDataParams,
  siteDataResponse,
  siteFullNamesResponse,
  siteHeadsOfSafetyResponse,
  siteListQuery,
  siteListResponseSchema,
  siteNodeCreateSchema,
  siteNodeItemResponse,
  siteNodeParams,
  siteNodeUpdateSchema,
  siteResponseSchema,
  siteSchema,
  siteTreeResponseSchema,
  siteUpdateSchema,
  siteUserOptionsQuery,
  siteUserOptionsResponse,
} from './schemas.js';

const read = { subject: 'Site', action: 'read' } as const;
const update = { subject: 'Site', action: 'update' } as const;

/**
 * Sites (spec 001 §3, §5, §9): the sites themselves, their divisions, departments and units, the
 * monthly manpower, and the people and options the other screens pick from.
 */
export const sitesApi = defineApi('sites', {
  // --- Sites ----------------------------------------------------------------------------------------
  list: {
    method: 'GET',
    path: '/api/sites',
    access: read,
    summary: 'Sites of the organisation: a page, searched and filtered by status, or all of them as Excel (export_to_excel=true)',
    query: siteListQuery,
    response: siteListResponseSchema,
    file: 'on_export',
    exportJob: true,
  },
  get: {
    method: 'GET',
    path: '/api/sites/:id',
    access: read,
    summary: 'One site',
    params: idParams,
    response: siteResponseSchema,
  },
  create: {
    method: 'POST',
    path: '/api/sites',
    access: { subject: 'Site', action: 'create' },
    summary: 'Create a site',
    body: siteSchema,
    response: siteResponseSchema,
    status: 201,
    refusals: [409],
  },
  update: {
    method: 'PATCH',
    path: '/api/sites/:id',
    access: update,
    summary: 'Change a site (any subset of its fields; is_active=false deactivates it, sites are never deleted)',
    params: idParams,
    body: siteUpdateSchema,
    response: siteResponseSchema,
    refusals: [409],
  },

  // --- Divisions, departments and units ------------------------------------------------------------
  tree: {
    method: 'GET',
    path: '/api/sites/:id/divisions',
    access: read,
    summary: 'The divisions, departments and units of a site as a tree',
    params: idParams,
    response: siteTreeResponseSchema,
  },
  createNode: {
    method: 'POST',
    path: '/api/sites/:id/divisions',
    access: update,
    summary: 'Add a division (no parent_id), a department (parent: a division) or a unit (parent: a department)',
    params: idParams,
    body: siteNodeCreateSchema,
    response: siteNodeItemResponse,
    status: 201,
    refusals: [409],
  },
  updateNode: {
    method: 'PATCH',
    path: '/api/sites/:id/divisions/:node_id',
    access: update,
    summary: 'Rename a division, department or unit or change its head or supervisor',
    params: siteNodeParams,
    body: siteNodeUpdateSchema,
    response: siteNodeItemResponse,
    refusals: [409],
  },
  removeNode: {
    method: 'DELETE',
    path: '/api/sites/:id/divisions/:node_id',
    access: update,
    summary: 'Delete a division, department or unit with everything under it',
    params: siteNodeParams,
    response: okResponse,
    refusals: [409],
  },
  fullNames: {
    method: 'GET',
    path: '/api/sites/site_full_name',
    access: { session: true },
    summary:
      'Every active site with its divisions, departments and units as full names ("Site / Division / Department / Unit") for pickers',
    response: siteFullNamesResponse,
  },
  organizationData: {
    method: 'GET',
    path: '/api/organizations/:organization_id/site_data',
    access: read,
    summary: 'The organisation’s sites with their divisions, departments and units (only the caller’s own organisation)',
    params: siteDataParams,
    response: siteDataResponse,
  },

  // --- Manpower -------------------------------------------------------------------------------------
  manpower: {
    method: 'GET',
    path: '/api/sites/manpower',
    access: { admin: true },
    summary: 'Monthly manpower of every site for a year (unset months hold the default of 100)',
    query: manpowerQuery,
    response: manpowerResponseSchema,
  },
  setManpower: {
    method: 'PUT',
    path: '/api/sites/manpower',
    access: { admin: true },
    summary: 'Set monthly manpower totals of a year (null returns a month to the default)',
    body: manpowerUpdateSchema,
    response: manpowerResponseSchema,
    refusals: [404],
  },

  // --- People and options ---------------------------------------------------------------------------
  userOptions: {
    method: 'GET',
    path: '/api/sites/user_options',
    access: read,
    summary: 'Active users to choose as head of safety, head of site, head or supervisor (first 50 matching)',
    query: siteUserOptionsQuery,
    response: siteUserOptionsResponse,
  },
  headsOfSafety: {
    method: 'GET',
    path: '/api/sites/all_site_head_of_safety',
    // Names and e-mails of staff: for whoever may read sites, as the site form shows them.
    access: { subject: 'Site', action: 'read' },
    summary: 'The head of safety of each active site',
    response: siteHeadsOfSafetyResponse,
  },
  activeSitesOfUser: {
    method: 'GET',
    path: '/api/v3/sites/active_sites_of_user',
    access: { session: true },
    summary: 'Active sites the signed-in user belongs to (all active sites for an admin)',
    response: activeSitesResponse,
  },
});
