import { defineApi } from '../api/contract.js';
import { idParams, okResponse } from '../api/shared.js';
import {
  apiTokenCreateBody,
  apiTokenCreatedResponse,
  serviceAccountCreateBody,
  serviceAccountListResponse,
  serviceAccountResponse,
  serviceAccountUpdateBody,
} from './schemas.js';

const admin = { admin: true } as const;

/** Service accounts and their API tokens: the organisation's administrators only. */
export const apiTokensApi = defineApi('api-tokens', {
  list: {
    method: 'GET',
    path: '/api/service_accounts',
    access: admin,
    summary: 'The service accounts with their tokens (never the tokens themselves) and when each was last used',
    response: serviceAccountListResponse,
  },
  create: {
    method: 'POST',
    path: '/api/service_accounts',
    access: admin,
    summary: 'Create a service account: a user of kind "integration" with a role, who can never sign in with a password',
    body: serviceAccountCreateBody,
    response: serviceAccountResponse,
    status: 201,
  },
  update: {
    method: 'PATCH',
    path: '/api/service_accounts/:id',
    access: admin,
    summary: 'Rename a service account, change its role, or deactivate it (its tokens stop working at once)',
    params: idParams,
    body: serviceAccountUpdateBody,
    response: serviceAccountResponse,
  },
  createToken: {
    method: 'POST',
    path: '/api/service_accounts/:id/tokens',
    access: admin,
    summary: 'Create a named API token for a service account: the answer is the only time the token is shown',
    params: idParams,
    body: apiTokenCreateBody,
    response: apiTokenCreatedResponse,
    status: 201,
    refusals: [409],
  },
  revokeToken: {
    method: 'DELETE',
    path: '/api/api_tokens/:id',
    access: admin,
    summary: 'Revoke an API token: it is refused from the next request on',
    params: idParams,
    response: okResponse,
  },
});
