import {
  errorResponse,
  manpowerResponseSchema,
  manpowerUpdateSchema,
  manpowerYearSchema,
  okResponse,
  siteFullNameSchema,
  siteListQuerySchema,
  siteListResponseSchema,
  siteNodeCreateSchema,
  siteNodeResponseSchema,
  siteNodeSchema,
  siteResponseSchema,
  siteSchema,
  siteTreeResponseSchema,
  siteUpdateSchema,
  translate,
  type SiteResponse,
} from '@bulwark/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { sendWorkbook, type ExcelColumn } from '../../platform/export/excel.js';
import { principalOf } from '../../platform/http/access.js';
import { refuseInvalid } from '../../platform/http/validation.js';
import { exportFlag, listQuery, pagination } from '../../platform/http/list.js';
import {
  activeSitesOfUser,
  allSites,
  createNode,
  createSite,
  deleteNode,
  getManpower,
  getSite,
  headsOfSafety,
  listSites,
  setManpower,
  siteData,
  siteFullNames,
  siteTree,
  updateNode,
  updateSite,
  userOptions,
} from './service.js';

const tags = ['Sites'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const idParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });
const nodeParams = idParams.extend({ node_id: z.uuid({ message: 'validation.invalid' }) });
const userSummary = z.object({ id: z.string(), full_name: z.string(), email: z.string() });

function excelColumns(req: FastifyRequest): ExcelColumn<SiteResponse>[] {
  const t = (key: string) => translate(req.lang, `sites.${key}`);
  return [
    { header: t('fields.name'), key: 'name', width: 28, value: (s) => s.name },
    { header: t('fields.shortName'), key: 'short_name', value: (s) => s.short_name },
    { header: t('fields.siteCode'), key: 'site_code', value: (s) => s.site_code },
    { header: t('fields.timeZone'), key: 'time_zone', width: 22, value: (s) => s.time_zone },
    { header: t('fields.headOfSafety'), key: 'head_of_safety', width: 24, value: (s) => s.head_of_safety?.full_name },
    { header: t('fields.headOfSite'), key: 'head_of_site', width: 24, value: (s) => s.head_of_site?.full_name },
    { header: t('fields.emergencyPhone'), key: 'emergency_phone', width: 18, value: (s) => s.emergency_phone },
    { header: t('fields.emergencyEmail'), key: 'emergency_email', width: 26, value: (s) => s.emergency_email },
    { header: t('fields.address'), key: 'address', width: 32, value: (s) => s.address },
    { header: t('fields.city'), key: 'city', value: (s) => s.city },
    { header: t('fields.state'), key: 'state', value: (s) => s.state },
    { header: t('fields.country'), key: 'country', value: (s) => s.country },
    { header: t('fields.zip'), key: 'zip', value: (s) => s.zip },
    { header: t('fields.latitude'), key: 'latitude', value: (s) => s.latitude },
    { header: t('fields.longitude'), key: 'longitude', value: (s) => s.longitude },
    { header: t('fields.status'), key: 'status', value: (s) => t(s.is_active ? 'list.active' : 'list.inactive') },
  ];
}

export function siteRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = deps.db.app;

  r.get(
    '/api/sites',
    {
      config: { access: { subject: 'Site', action: 'read' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Sites of the organisation: a page, searched and filtered by status, or all of them as Excel (export_to_excel=true)',
        querystring: listQuery.extend(siteListQuerySchema.shape).extend(exportFlag.shape),
        response: { 200: siteListResponseSchema, ...errors },
      },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const q = req.query;
      if (q.export_to_excel) {
        const rows = await inTenant(db, p.organizationId, (tx) => allSites(tx, { search: q.search, active: q.active }));
        return sendWorkbook(
          reply,
          translate(req.lang, 'sites.list.exportName'),
          translate(req.lang, 'sites.excel.sheet'),
          excelColumns(req),
          rows,
        );
      }
      const page = await inTenant(db, p.organizationId, (tx) => listSites(tx, q));
      return { sites: page.sites, pagination: pagination(page.total, q.page, q.per_page) };
    },
  );

  r.get(
    '/api/sites/site_full_name',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary:
          'Every active site with its divisions, departments and units as full names ("Site / Division / Department / Unit") for pickers',
        response: { 200: z.object({ sites: z.array(siteFullNameSchema) }), ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return { sites: await inTenant(db, p.organizationId, (tx) => siteFullNames(tx)) };
    },
  );

  r.get(
    '/api/sites/all_site_head_of_safety',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'The head of safety of each active site',
        response: {
          200: z.object({ heads_of_safety: z.array(z.object({ site_id: z.string(), site_name: z.string(), user: userSummary })) }),
          ...errors,
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return { heads_of_safety: await inTenant(db, p.organizationId, (tx) => headsOfSafety(tx)) };
    },
  );

  r.get(
    '/api/sites/user_options',
    {
      config: { access: { subject: 'Site', action: 'read' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Active users to choose as head of safety, head of site, head or supervisor (first 50 matching)',
        querystring: z.object({ search: z.string().trim().max(200, { message: 'validation.tooLong' }).optional() }),
        response: { 200: z.object({ users: z.array(userSummary) }), ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return { users: await inTenant(db, p.organizationId, (tx) => userOptions(tx, req.query.search)) };
    },
  );

  r.get(
    '/api/sites/manpower',
    {
      config: { access: { admin: true } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Monthly manpower of every site for a year (unset months hold the default of 100)',
        querystring: z.object({ year: manpowerYearSchema }),
        response: { 200: manpowerResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return inTenant(db, p.organizationId, (tx) => getManpower(tx, req.query.year));
    },
  );

  r.put(
    '/api/sites/manpower',
    {
      config: { access: { admin: true } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Set monthly manpower totals of a year (null returns a month to the default)',
        body: manpowerUpdateSchema,
        response: { 200: manpowerResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return inTenant(db, p.organizationId, (tx) => setManpower(tx, p, req.body));
    },
  );

  r.get(
    '/api/sites/:id',
    {
      config: { access: { subject: 'Site', action: 'read' } },
      attachValidation: true,
      schema: { tags, summary: 'One site', params: idParams, response: { 200: siteResponseSchema, ...errors } },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return inTenant(db, p.organizationId, (tx) => getSite(tx, req.params.id));
    },
  );

  r.post(
    '/api/sites',
    {
      config: { access: { subject: 'Site', action: 'create' } },
      attachValidation: true,
      schema: { tags, summary: 'Create a site', body: siteSchema, response: { 201: siteResponseSchema, ...errors } },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const site = await inTenant(db, p.organizationId, (tx) => createSite(tx, p, req.body));
      return reply.status(201).send(site);
    },
  );

  r.patch(
    '/api/sites/:id',
    {
      config: { access: { subject: 'Site', action: 'update' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Change a site (any subset of its fields; is_active=false deactivates it, sites are never deleted)',
        params: idParams,
        body: siteUpdateSchema,
        response: { 200: siteResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      // The raw body: the service merges only the fields the caller sent into the stored site.
      const sent = Object.fromEntries(Object.keys(req.body).map((k) => [k, (req.body as Record<string, unknown>)[k]]));
      return inTenant(db, p.organizationId, (tx) => updateSite(tx, p, req.params.id, sent));
    },
  );

  r.get(
    '/api/sites/:id/divisions',
    {
      config: { access: { subject: 'Site', action: 'read' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'The divisions, departments and units of a site as a tree',
        params: idParams,
        response: { 200: siteTreeResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return inTenant(db, p.organizationId, (tx) => siteTree(tx, req.params.id));
    },
  );

  const nodeOut = z.object({ id: z.string(), level: z.string(), parent_id: z.string().nullable(), name: z.string() });
  const toNodeOut = (n: { id: string; level: string; parentId: string | null; name: string }) => ({
    id: n.id,
    level: n.level,
    parent_id: n.parentId,
    name: n.name,
  });

  r.post(
    '/api/sites/:id/divisions',
    {
      config: { access: { subject: 'Site', action: 'update' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Add a division (no parent_id), a department (parent: a division) or a unit (parent: a department)',
        params: idParams,
        body: siteNodeCreateSchema,
        response: { 201: nodeOut, ...errors },
      },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const node = await inTenant(db, p.organizationId, (tx) => createNode(tx, p, req.params.id, req.body));
      return reply.status(201).send(toNodeOut(node));
    },
  );

  r.patch(
    '/api/sites/:id/divisions/:node_id',
    {
      config: { access: { subject: 'Site', action: 'update' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Rename a division, department or unit or change its head or supervisor',
        params: nodeParams,
        body: siteNodeSchema.partial(),
        response: { 200: nodeOut, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const body = req.body;
      const raw = req.body as Record<string, unknown>;
      // Only the fields sent change: an omitted head stays, an explicit null clears it.
      const input = {
        ...('name' in raw && body.name !== undefined ? { name: body.name } : {}),
        ...('head_id' in raw ? { head_id: body.head_id ?? null } : {}),
        ...('supervisor_id' in raw ? { supervisor_id: body.supervisor_id ?? null } : {}),
      };
      const node = await inTenant(db, p.organizationId, (tx) => updateNode(tx, p, req.params.id, req.params.node_id, input));
      return toNodeOut(node);
    },
  );

  r.delete(
    '/api/sites/:id/divisions/:node_id',
    {
      config: { access: { subject: 'Site', action: 'update' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Delete a division, department or unit with everything under it',
        params: nodeParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      await inTenant(db, p.organizationId, (tx) => deleteNode(tx, p, req.params.id, req.params.node_id));
      return { ok: true as const };
    },
  );

  r.get(
    '/api/organizations/:organization_id/site_data',
    {
      config: { access: { subject: 'Site', action: 'read' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'The organisation’s sites with their divisions, departments and units (only the caller’s own organisation)',
        params: z.object({ organization_id: z.uuid({ message: 'validation.invalid' }) }),
        response: {
          200: z.object({ sites: z.array(siteResponseSchema.extend({ divisions: z.array(siteNodeResponseSchema) })) }),
          ...errors,
        },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      // Another organisation is "not found", exactly like one that does not exist.
      if (req.params.organization_id !== p.organizationId) throw new AppError('not_found');
      return { sites: await inTenant(db, p.organizationId, (tx) => siteData(tx)) };
    },
  );

  r.get(
    '/api/v3/sites/active_sites_of_user',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Active sites the signed-in user belongs to (all active sites for an admin)',
        response: {
          200: z.object({
            sites: z.array(
              z.object({
                id: z.string(),
                name: z.string(),
                short_name: z.string().nullable(),
                site_code: z.string().nullable(),
                time_zone: z.string(),
              }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return { sites: await inTenant(db, p.organizationId, (tx) => activeSitesOfUser(tx, p)) };
    },
  );
}
