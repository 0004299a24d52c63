import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import {
  organizationLookupQuery,
  organizationLookupResponse,
  platformOrganizationListResponse,
  platformOrganizationSchema,
  platformOrganizationUpdateBody,
} from './schemas.js';
import { storageQuotaBody } from '../storage/schemas.js';

const platform = { platform: true } as const;

/** The sign-in finder's look-up, and the platform admin's view of the customer organisations. */
export const organizationsApi = defineApi('organizations', {
  lookup: {
    method: 'GET',
    path: '/api/v1/organizations/lookup',
    access: { public: true },
    summary: 'Does an organisation use this sub-domain? (sign-in finder on the bare domain)',
    query: organizationLookupQuery,
    response: organizationLookupResponse,
  },
  list: {
    method: 'GET',
    path: '/api/organizations',
    access: platform,
    summary: 'Every customer organisation (platform admin)',
    response: platformOrganizationListResponse,
  },
  get: {
    method: 'GET',
    path: '/api/organizations/:id',
    access: platform,
    summary: 'One customer organisation (platform admin)',
    params: idParams,
    response: platformOrganizationSchema,
  },
  update: {
    method: 'PATCH',
    path: '/api/organizations/:id',
    access: platform,
    summary: 'Activate or deactivate an organisation, or change its subscription (platform admin)',
    params: idParams,
    body: platformOrganizationUpdateBody,
    response: platformOrganizationSchema,
  },
  setStorageQuota: {
    method: 'PUT',
    path: '/api/organizations/:id/storage_quota',
    access: platform,
    summary: 'Set an organisation’s storage quota in bytes (platform admin)',
    description: 'A quota below what the organisation already uses is allowed: its members then free space before writing again.',
    params: idParams,
    body: storageQuotaBody,
    response: platformOrganizationSchema,
  },
  remove: {
    method: 'DELETE',
    path: '/api/organizations/:id',
    access: platform,
    summary: 'Remove an organisation: its users are signed out at once (platform admin)',
    params: idParams,
    response: okResponse,
  },
});
