import {
  ehsOcpItemSchema,
  ehsOcpPatchSchema,
  ehsOcpSchema,
  emailSubscriptionsResponse,
  emailSubscriptionsSchema,
  errorResponse,
  kpiSettingsResponse,
  kpiSettingsSchema,
  kpiYearQuery,
} from '@bulwark/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../../platform/auth/principal.js';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { principalOf } from '../../platform/http/access.js';
import { listQuery, paginationSchema } from '../../platform/http/list.js';
import { createEhsOcp, getEhsOcp, getKpiSettings, listEhsOcps, saveKpiSettings, updateEhsOcp } from './service.js';
import { listEmailSubscriptions, saveEmailSubscriptions } from './subscriptions.js';

const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const idParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });

export function settingsRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inOrg = <T>(p: Principal, fn: Parameters<typeof inTenant<T>>[2]) => inTenant(deps.db.app, p.organizationId, fn);

  // ---- KPI settings (admin) ----
  r.get(
    '/api/kpi_settings',
    {
      config: { access: { admin: true } },
      schema: {
        tags: ['KPI settings'],
        summary: 'KPI targets of a year (the defaults until saved)',
        querystring: kpiYearQuery,
        response: { 200: kpiSettingsResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inOrg(p, (tx) => getKpiSettings(tx, req.query.year));
    },
  );

  r.put(
    '/api/kpi_settings',
    {
      config: { access: { admin: true } },
      schema: {
        tags: ['KPI settings'],
        summary: 'Save the KPI targets of a year',
        querystring: kpiYearQuery,
        body: kpiSettingsSchema,
        response: { 200: kpiSettingsResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inOrg(p, (tx) => saveKpiSettings(tx, p.userId, req.query.year, req.body));
    },
  );

  // ---- EHS OCP: read by every signed-in user (incident forms pick one), written by the admin ----
  const ocpTags = ['EHS OCP'];
  r.get(
    '/api/v2/ehs_ocps',
    {
      config: { access: { session: true } },
      schema: {
        tags: ocpTags,
        summary: 'EHS operational control procedures, by code',
        querystring: listQuery.extend({
          active: z
            .enum(['true', 'false'])
            .optional()
            .transform((v) => (v === undefined ? undefined : v === 'true')),
        }),
        response: { 200: z.object({ ehs_ocps: z.array(ehsOcpItemSchema), pagination: paginationSchema }), ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inOrg(p, (tx) => listEhsOcps(tx, req.query));
    },
  );

  r.get(
    '/api/v2/ehs_ocps/:id',
    {
      config: { access: { session: true } },
      schema: {
        tags: ocpTags,
        summary: 'One EHS operational control procedure',
        params: idParams,
        response: { 200: ehsOcpItemSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inOrg(p, (tx) => getEhsOcp(tx, req.params.id));
    },
  );

  r.post(
    '/api/v2/ehs_ocps',
    {
      config: { access: { admin: true } },
      schema: {
        tags: ocpTags,
        summary: 'Add an EHS operational control procedure',
        body: ehsOcpSchema,
        response: { 201: ehsOcpItemSchema, ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const ocp = await inOrg(p, (tx) => createEhsOcp(tx, p.userId, req.body));
      deps.push.toOrganization(p.organizationId, { channel: 'all_modules', change: 'created', id: ocp.id });
      return reply.status(201).send(ocp);
    },
  );

  r.patch(
    '/api/v2/ehs_ocps/:id',
    {
      config: { access: { admin: true } },
      schema: {
        tags: ocpTags,
        summary: 'Change an EHS operational control procedure (deactivate with active: false)',
        params: idParams,
        body: ehsOcpPatchSchema,
        response: { 200: ehsOcpItemSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const ocp = await inOrg(p, (tx) => updateEhsOcp(tx, p.userId, req.params.id, req.body));
      deps.push.toOrganization(p.organizationId, { channel: 'all_modules', change: 'updated', id: ocp.id });
      return ocp;
    },
  );

  // ---- E-mail subscriptions: every signed-in user, for themself ----
  r.get(
    '/api/email_subscriptions',
    {
      config: { access: { session: true } },
      schema: {
        tags: ['E-mail subscriptions'],
        summary: 'Which e-mails I receive, per scenario',
        response: { 200: emailSubscriptionsResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inOrg(p, async (tx) => ({ subscriptions: await listEmailSubscriptions(tx, p.userId) }));
    },
  );

  r.put(
    '/api/email_subscriptions',
    {
      config: { access: { session: true } },
      schema: {
        tags: ['E-mail subscriptions'],
        summary: 'Choose which e-mails I receive (mandatory ones stay on)',
        body: emailSubscriptionsSchema,
        response: { 200: emailSubscriptionsResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inOrg(p, async (tx) => {
        await saveEmailSubscriptions(tx, p.userId, req.body);
        return { subscriptions: await listEmailSubscriptions(tx, p.userId) };
      });
    },
  );
}
