import {
  errorResponse,
  okResponse,
  phenomenaRootCausesResponse,
  rootCauseCreateSchema,
  rootCauseListResponse,
  rootCauseNodeSchema,
  rootCauseParentListingResponse,
  rootCauseUpdateSchema,
} from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { principalOf } from '../../platform/http/access.js';
import {
  createRootCause,
  deleteRootCause,
  listRootCauses,
  phenomenaRootCauses,
  rootCauseParentListing,
  updateRootCause,
} from './root-causes.js';
import { statusFilter } from './routes.js';
import { categoryNameRace } from './service.js';

const tags = ['Root-cause settings'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const params = z.object({ id: z.uuid({ message: 'validation.invalid' }) });
const typeName = z.string().trim().max(150, { message: 'validation.tooLong' }).optional();

async function withNameRace<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw categoryNameRace(err) ?? err;
  }
}

export function rootCauseRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const read = { access: { subject: 'RC Master', action: 'read' } } as const;

  r.get(
    '/api/root_cause_settings',
    {
      config: read,
      schema: {
        tags,
        summary: 'The root-cause tree in reading order (filter by type name, status, search)',
        querystring: z.object({
          type_name: typeName,
          status: statusFilter,
          search: z.string().trim().max(200, { message: 'validation.tooLong' }).optional(),
        }),
        response: { 200: rootCauseListResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => listRootCauses(tx, req.query));
    },
  );

  r.get(
    '/api/root_cause_settings/phenomena_root_causes',
    {
      config: read,
      schema: {
        tags,
        summary: 'The root causes an investigation may pick: active entries with nothing active below them',
        querystring: z.object({ type_name: typeName }),
        response: { 200: phenomenaRootCausesResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => phenomenaRootCauses(tx, req.query));
    },
  );

  r.get(
    '/api/root_cause_settings/:id/root_cause_parent_listing',
    {
      config: read,
      schema: {
        tags,
        summary: 'An entry with its path from the type and the entries directly below it',
        params,
        response: { 200: rootCauseParentListingResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => rootCauseParentListing(tx, req.params.id));
    },
  );

  r.post(
    '/api/root_cause_settings',
    {
      config: { access: { subject: 'RC Master', action: 'create' } },
      schema: {
        tags,
        summary: 'Add a type (no parent) or an entry below parent_id',
        body: rootCauseCreateSchema,
        response: { 201: rootCauseNodeSchema, ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const node = await withNameRace(() => inTenant(deps.db.app, p.organizationId, (tx) => createRootCause(tx, p, req.body)));
      return reply.status(201).send(node);
    },
  );

  r.post(
    '/api/root_cause_settings/:id',
    {
      config: { access: { subject: 'RC Master', action: 'create' } },
      schema: {
        tags,
        summary: 'Add an entry below {id}',
        params,
        body: rootCauseCreateSchema.omit({ parent_id: true }),
        response: { 201: rootCauseNodeSchema, ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const node = await withNameRace(() =>
        inTenant(deps.db.app, p.organizationId, (tx) => createRootCause(tx, p, req.body, req.params.id)),
      );
      return reply.status(201).send(node);
    },
  );

  r.patch(
    '/api/root_cause_settings/:id',
    {
      config: { access: { subject: 'RC Master', action: 'update' } },
      schema: {
        tags,
        summary: 'Rename, move, deactivate or activate an entry (with_children: together with everything below it)',
        params,
        body: rootCauseUpdateSchema,
        response: { 200: rootCauseNodeSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return withNameRace(() => inTenant(deps.db.app, p.organizationId, (tx) => updateRootCause(tx, p, req.params.id, req.body)));
    },
  );

  r.delete(
    '/api/root_cause_settings/:id',
    {
      config: { access: { subject: 'RC Master', action: 'delete' } },
      schema: { tags, summary: 'Delete an entry that has nothing below it', params, response: { 200: okResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      await inTenant(deps.db.app, p.organizationId, (tx) => deleteRootCause(tx, p, req.params.id));
      return { ok: true as const };
    },
  );
}
