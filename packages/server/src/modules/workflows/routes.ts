import {
  WORKFLOW_MODULES,
  errorResponse,
  workflowCreateSchema,
  workflowListResponse,
  workflowOptionsResponse,
  workflowSchema,
  workflowUpdateSchema,
} from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { principalOf } from '../../platform/http/access.js';
import { listQuery } from '../../platform/http/list.js';
import { createWorkflow, deleteWorkflow, getWorkflow, listWorkflows, updateWorkflow, workflowOptions } from './service.js';

const tags = ['Workflows'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const params = z.object({ id: z.uuid({ message: 'validation.invalid' }) });

export function workflowRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/workflows',
    {
      config: { access: { subject: 'WorkFlow', action: 'read' } },
      schema: {
        tags,
        summary: 'Workflows of the organisation (filter by module, search by title, pages)',
        querystring: listQuery.extend({ module: z.enum(WORKFLOW_MODULES, { message: 'validation.invalid' }).optional() }),
        response: { 200: workflowListResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => listWorkflows(tx, req.query));
    },
  );

  r.get(
    '/api/workflows/options',
    {
      config: { access: { subject: 'WorkFlow', action: 'read' } },
      schema: { tags, summary: 'Active users and sites a workflow may name', response: { 200: workflowOptionsResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => workflowOptions(tx));
    },
  );

  r.get(
    '/api/workflows/:id',
    {
      config: { access: { subject: 'WorkFlow', action: 'read' } },
      schema: { tags, summary: 'A workflow with its reviewers in order', params, response: { 200: workflowSchema, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => getWorkflow(tx, req.params.id));
    },
  );

  r.post(
    '/api/workflows',
    {
      config: { access: { subject: 'WorkFlow', action: 'create' } },
      schema: { tags, summary: 'Create a workflow', body: workflowCreateSchema, response: { 201: workflowSchema, ...errors } },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const workflow = await inTenant(deps.db.app, p.organizationId, (tx) => createWorkflow(tx, p, req.body));
      return reply.status(201).send(workflow);
    },
  );

  r.patch(
    '/api/workflows/:id',
    {
      config: { access: { subject: 'WorkFlow', action: 'update' } },
      schema: {
        tags,
        summary: 'Change a workflow (reviewer_ids replaces the reviewers, in order)',
        params,
        body: workflowUpdateSchema,
        response: { 200: workflowSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => updateWorkflow(tx, p, req.params.id, req.body));
    },
  );

  r.delete(
    '/api/workflows/:id',
    {
      config: { access: { subject: 'WorkFlow', action: 'delete' } },
      schema: { tags, summary: 'Delete a workflow', params, response: { 200: workflowSchema, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => deleteWorkflow(tx, p, req.params.id));
    },
  );
}
