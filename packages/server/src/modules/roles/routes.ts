import { errorResponse, okResponse, roleCreateBody, roleDetailSchema, rolesListResponse, roleUpdateBody, translate } from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { principalOf } from '../../platform/http/access.js';
import { listQuery } from '../../platform/http/list.js';
import { RoleInUseError, createRoleFromBody, deleteRole, getRole, listRoles, updateRole } from './service.js';

const tags = ['Roles'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const params = z.object({ id: z.uuid({ message: 'validation.invalid' }) });

/** A unique-name race lost to a concurrent request surfaces as the database's unique violation. */
function nameRace(err: unknown): AppError | null {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: string; constraint?: string };
    if (pg.code === '23505' && pg.constraint === 'roles_name_unique') {
      return new AppError('conflict', { fields: { name: 'roles.validation.nameTaken' } });
    }
  }
  return null;
}

export function roleRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/roles',
    {
      config: { access: { subject: 'Role', action: 'read' } },
      schema: {
        tags,
        summary: 'Roles of the organisation with the number of users holding each (search, pages)',
        querystring: listQuery,
        response: { 200: rolesListResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => listRoles(tx, req.query));
    },
  );

  r.get(
    '/api/roles/:id',
    {
      config: { access: { subject: 'Role', action: 'read' } },
      schema: {
        tags,
        summary: 'A role with its rights per module (role_actions_attributes)',
        params,
        response: { 200: roleDetailSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => getRole(tx, req.params.id));
    },
  );

  r.post(
    '/api/roles',
    {
      config: { access: { subject: 'Role', action: 'create' } },
      schema: { tags, summary: 'Create a role', body: roleCreateBody, response: { 201: roleDetailSchema, ...errors } },
    },
    async (req, reply) => {
      const p = principalOf(req);
      try {
        const role = await inTenant(deps.db.app, p.organizationId, (tx) => createRoleFromBody(tx, p, req.body));
        return reply.status(201).send(role);
      } catch (err) {
        throw nameRace(err) ?? err;
      }
    },
  );

  r.patch(
    '/api/roles/:id',
    {
      config: { access: { subject: 'Role', action: 'update' } },
      schema: {
        tags,
        summary: 'Change a role; its signed-in users get the new rules at once',
        params,
        body: roleUpdateBody,
        response: { 200: roleDetailSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      let result;
      try {
        result = await inTenant(deps.db.app, p.organizationId, (tx) => updateRole(tx, p, req.params.id, req.body));
      } catch (err) {
        throw nameRace(err) ?? err;
      }
      // After commit: every holder's open sessions reload their rules and profile.
      for (const userId of result.affectedUserIds) deps.push.toUser(userId, { channel: 'rules', change: 'updated' });
      return result.role;
    },
  );

  r.delete(
    '/api/roles/:id',
    {
      config: { access: { subject: 'Role', action: 'delete' } },
      schema: {
        tags,
        summary: 'Delete a role no user holds (system roles cannot be deleted)',
        params,
        response: { 200: okResponse, ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      try {
        await inTenant(deps.db.app, p.organizationId, (tx) => deleteRole(tx, p, req.params.id));
      } catch (err) {
        if (!(err instanceof RoleInUseError)) throw err;
        // The shared error handler translates without variables; this refusal must say how many users.
        return reply.status(409).send({
          errors: [translate(req.lang, 'roles.errors.inUse', { count: err.usersCount })],
          code: 'conflict',
        });
      }
      return { ok: true as const };
    },
  );
}
