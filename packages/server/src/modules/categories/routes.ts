import {
  CATEGORY_MODULES,
  CATEGORY_TYPES_BY_MODULE,
  categoryCreateSchema,
  categoryDetailResponse,
  categoryListResponse,
  categoryModuleSchema,
  categorySchema,
  categoryTypeSchema,
  categoryTypesResponse,
  categoryUpdateSchema,
  errorResponse,
  subCategoryCreateSchema,
  subCategorySchema,
  subCategoryUpdateSchema,
} from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { principalOf } from '../../platform/http/access.js';
import { listQuery } from '../../platform/http/list.js';
import {
  categoryNameRace,
  createCategory,
  createSubCategory,
  getCategory,
  listCategories,
  updateCategory,
  updateSubCategory,
} from './service.js';

const tags = ['Categories'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const uuid = z.uuid({ message: 'validation.invalid' });
const params = z.object({ id: uuid });
const subParams = z.object({ id: uuid, subId: uuid });
export const statusFilter = z.enum(['active', 'inactive'], { message: 'validation.invalid' }).optional();

const categoryListQuery = listQuery.extend({
  module: categoryModuleSchema.optional(),
  type: categoryTypeSchema.optional(),
  status: statusFilter,
});

/** Runs a write and turns a lost unique-name race into the same refusal as the service's own check. */
async function withNameRace<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw categoryNameRace(err) ?? err;
  }
}

export function categoryRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/categories',
    {
      config: { access: { subject: 'Category', action: 'read' } },
      schema: {
        tags,
        summary: 'Categories filtered by module, type, status and name, with pagination',
        querystring: categoryListQuery,
        response: { 200: categoryListResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => listCategories(tx, req.query));
    },
  );

  r.get(
    '/api/categories/category_types',
    {
      config: { access: { subject: 'Category', action: 'read' } },
      schema: { tags, summary: 'The category types of each module', response: { 200: categoryTypesResponse, ...errors } },
    },
    async () => ({
      category_types: CATEGORY_MODULES.map((module) => ({ module, types: [...CATEGORY_TYPES_BY_MODULE[module]] })),
    }),
  );

  r.get(
    '/api/categories/:id',
    {
      config: { access: { subject: 'Category', action: 'read' } },
      schema: { tags, summary: 'A category with its sub-categories', params, response: { 200: categoryDetailResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => getCategory(tx, req.params.id));
    },
  );

  r.post(
    '/api/categories',
    {
      config: { access: { subject: 'Category', action: 'create' } },
      schema: { tags, summary: 'Create a category', body: categoryCreateSchema, response: { 201: categorySchema, ...errors } },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const category = await withNameRace(() => inTenant(deps.db.app, p.organizationId, (tx) => createCategory(tx, p, req.body)));
      return reply.status(201).send(category);
    },
  );

  r.patch(
    '/api/categories/:id',
    {
      config: { access: { subject: 'Category', action: 'update' } },
      schema: {
        tags,
        summary: 'Rename, retype within its module, describe, activate or deactivate a category',
        params,
        body: categoryUpdateSchema,
        response: { 200: categorySchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return withNameRace(() => inTenant(deps.db.app, p.organizationId, (tx) => updateCategory(tx, p, req.params.id, req.body)));
    },
  );

  r.get(
    '/api/categories/:id/sub_categories',
    {
      config: { access: { subject: 'Category', action: 'read' } },
      schema: {
        tags,
        summary: 'Sub-categories of a category',
        params,
        response: { 200: z.object({ sub_categories: z.array(subCategorySchema) }), ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const detail = await inTenant(deps.db.app, p.organizationId, (tx) => getCategory(tx, req.params.id));
      return { sub_categories: detail.sub_categories };
    },
  );

  r.post(
    '/api/categories/:id/sub_categories',
    {
      config: { access: { subject: 'Category', action: 'create' } },
      schema: {
        tags,
        summary: 'Add a sub-category',
        params,
        body: subCategoryCreateSchema,
        response: { 201: subCategorySchema, ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const sub = await withNameRace(() =>
        inTenant(deps.db.app, p.organizationId, (tx) => createSubCategory(tx, p, req.params.id, req.body)),
      );
      return reply.status(201).send(sub);
    },
  );

  r.patch(
    '/api/categories/:id/sub_categories/:subId',
    {
      config: { access: { subject: 'Category', action: 'update' } },
      schema: {
        tags,
        summary: 'Rename, activate or deactivate a sub-category',
        params: subParams,
        body: subCategoryUpdateSchema,
        response: { 200: subCategorySchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return withNameRace(() =>
        inTenant(deps.db.app, p.organizationId, (tx) => updateSubCategory(tx, p, req.params.id, req.params.subId, req.body)),
      );
    },
  );
}
