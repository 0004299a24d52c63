import { defineApi } from '../api/contract.js';
import { idParams, listQuery, okResponse } from '../api/shared.js';
import { roleCreateBody, roleDetailSchema, rolesListResponse, roleUpdateBody } from './schemas.js';

/** Roles and their rights matrix (spec 001 §5). */
export const rolesApi = defineApi('roles', {
  list: {
    method: 'GET',
    path: '/api/roles',
    access: { subject: 'Role', action: 'read' },
    summary: 'Roles of the organisation with the number of users holding each (search, pages)',
    query: listQuery,
    response: rolesListResponse,
  },
  get: {
    method: 'GET',
    path: '/api/roles/:id',
    access: { subject: 'Role', action: 'read' },
    summary: 'A role with its rights per module (role_actions_attributes)',
    params: idParams,
    response: roleDetailSchema,
  },
  create: {
    method: 'POST',
    path: '/api/roles',
    access: { subject: 'Role', action: 'create' },
    summary: 'Create a role',
    body: roleCreateBody,
    response: roleDetailSchema,
    status: 201,
    refusals: [409],
  },
  update: {
    method: 'PATCH',
    path: '/api/roles/:id',
    access: { subject: 'Role', action: 'update' },
    summary: 'Change a role; its signed-in users get the new rules at once',
    params: idParams,
    body: roleUpdateBody,
    response: roleDetailSchema,
    refusals: [409],
  },
  remove: {
    method: 'DELETE',
    path: '/api/roles/:id',
    access: { subject: 'Role', action: 'delete' },
    summary: 'Delete a role no user holds (system roles cannot be deleted)',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },
});
