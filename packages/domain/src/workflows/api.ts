import { defineApi } from '../api/contract.js';
import { idParams } from '../api/shared.js';
import {
  workflowCreateSchema,
  workflowListQuery,
  workflowListResponse,
  workflowOptionsResponse,
  workflowSchema,
  workflowUpdateSchema,
} from './schemas.js';

const read = { subject: 'WorkFlow', action: 'read' } as const;

/** Review workflows (spec 001 §3 Workflow, §9): who reviews what, in which order, and who is escalated to. */
export const workflowsApi = defineApi('workflows', {
  list: {
    method: 'GET',
    path: '/api/workflows',
    access: read,
    summary: 'Workflows of the organisation (filter by module, search by title, pages)',
    query: workflowListQuery,
    response: workflowListResponse,
  },
  options: {
    method: 'GET',
    path: '/api/workflows/options',
    access: read,
    summary: 'Active users and sites a workflow may name',
    response: workflowOptionsResponse,
  },
  get: {
    method: 'GET',
    path: '/api/workflows/:id',
    access: read,
    summary: 'A workflow with its reviewers in order',
    params: idParams,
    response: workflowSchema,
  },
  create: {
    method: 'POST',
    path: '/api/workflows',
    access: { subject: 'WorkFlow', action: 'create' },
    summary: 'Create a workflow',
    body: workflowCreateSchema,
    response: workflowSchema,
    status: 201,
    refusals: [409],
  },
  update: {
    method: 'PATCH',
    path: '/api/workflows/:id',
    access: { subject: 'WorkFlow', action: 'update' },
    summary: 'Change a workflow (reviewer_ids replaces the reviewers, in order)',
    params: idParams,
    body: workflowUpdateSchema,
    response: workflowSchema,
    refusals: [409],
  },
  remove: {
    method: 'DELETE',
    path: '/api/workflows/:id',
    access: { subject: 'WorkFlow', action: 'delete' },
    summary: 'Delete a workflow',
    params: idParams,
    response: workflowSchema,
    refusals: [409],
  },
});
