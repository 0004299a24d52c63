import {
  can,
  errorResponse,
  okResponse,
  siCreateSchema,
  siDashboardResponseSchema,
  siListQuerySchema,
  siListResponseSchema,
  siOptionsResponseSchema,
  siPeopleResponseSchema,
  siResponseSchema,
  siScheduleListQuerySchema,
  siScheduleListResponseSchema,
  siScheduleResponseSchema,
  siScheduleSchema,
  siSerial,
  siSummaryQuerySchema,
  siSummaryResponseSchema,
  translate,
  type PushChange,
  type SiListItem,
} from '@bulwark/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { sendWorkbook, type ExcelColumn } from '../../platform/export/excel.js';
import { principalOf } from '../../platform/http/access.js';
import { pagination } from '../../platform/http/list.js';
import { refuseInvalid } from '../../platform/http/validation.js';
import { createSchedule, deleteSchedule, listSchedules, updateSchedule } from './schedules.js';
import {
  allInteractions,
  createInteraction,
  deleteInteraction,
  getInteraction,
  listInteractions,
  peopleOptions,
  updateInteraction,
} from './service.js';
import { formOptions } from './sites.js';
import { dashboard, summary } from './summary.js';

const tags = ['Safety interactions'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const idParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });
const read = { session: true } as const;
const right = (action: 'create' | 'update' | 'delete') => ({ subject: 'Observation', action }) as const;

function excelColumns(req: FastifyRequest): ExcelColumn<SiListItem>[] {
  const t = (key: string) => translate(req.lang, `safetyInteractions.${key}`);
  return [
    { header: t('fields.serial'), key: 'serial', value: (r) => siSerial(r.serial) },
    { header: t('fields.heldAt'), key: 'held_at', width: 18, value: (r) => r.held_at.replace('T', ' ') },
    { header: t('fields.site'), key: 'site', width: 24, value: (r) => r.site.name },
    { header: t('fields.area'), key: 'area', width: 28, value: (r) => r.area?.full_name },
    { header: t('fields.observer'), key: 'observer', width: 22, value: (r) => r.observer?.full_name },
    { header: t('fields.people'), key: 'people', width: 32, value: (r) => r.people.join(', ') },
    { header: t('fields.crew'), key: 'crew', width: 24, value: (r) => r.crew },
    { header: t('fields.duration'), key: 'duration', value: (r) => r.duration_minutes },
    { header: t('fields.topics'), key: 'topics', width: 40, value: (r) => r.topics.map((x) => t(`topics.${x}`)).join(', ') },
    { header: t('fields.safeBehaviours'), key: 'safe', value: (r) => r.safe_count },
    { header: t('fields.atRiskBehaviours'), key: 'at_risk', value: (r) => r.at_risk_count },
    { header: t('fields.recognition'), key: 'recognition', value: (r) => t(r.recognition_given ? 'list.yes' : 'list.no') },
    { header: t('fields.status'), key: 'status', value: (r) => t(`statuses.${r.status}`) },
  ];
}

export function safetyInteractionRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = deps.db.app;
  const push = (orgId: string, change: PushChange, id: string) =>
    deps.push.toOrganization(orgId, { channel: 'safety_interactions', change, id });

  r.get(
    '/api/safety_interactions',
    {
      config: { access: read },
      attachValidation: true,
      schema: {
        tags,
        summary:
          'Safety interactions, newest first: a page filtered by site, observer, topic, status, period and keyword, or all of them as Excel (export_to_excel=true)',
        querystring: siListQuerySchema,
        response: { 200: siListResponseSchema, ...errors },
      },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const q = req.query;
      if (q.export_to_excel) {
        const rows = await inTenant(db, p.organizationId, (tx) => allInteractions(tx, q));
        return sendWorkbook(
          reply,
          translate(req.lang, 'safetyInteractions.list.exportName'),
          translate(req.lang, 'safetyInteractions.excel.sheet'),
          excelColumns(req),
          rows,
        );
      }
      const page = await inTenant(db, p.organizationId, (tx) => listInteractions(tx, q));
      return { safety_interactions: page.items, pagination: pagination(page.total, q.page, q.per_page) };
    },
  );

  r.get(
    '/api/safety_interactions/options',
    {
      config: { access: read },
      schema: {
        tags,
        summary: 'Active sites with their time zones and areas, for the form',
        response: { 200: siOptionsResponseSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return { sites: await inTenant(db, p.organizationId, (tx) => formOptions(tx)) };
    },
  );

  r.get(
    '/api/safety_interactions/people',
    {
      config: { access: read },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Active members to pick as observer or participant (first 50 matching)',
        querystring: z.object({ search: z.string().trim().max(200, { message: 'validation.tooLong' }).optional() }),
        response: { 200: siPeopleResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return { users: await inTenant(db, p.organizationId, (tx) => peopleOptions(tx, req.query.search)) };
    },
  );

  r.get(
    '/api/safety_interactions/summary',
    {
      config: { access: read },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Completed interactions of a period: totals, safe against at-risk, by topic, by site, by observer, and the plans',
        querystring: siSummaryQuerySchema,
        response: { 200: siSummaryResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return inTenant(db, p.organizationId, (tx) => summary(tx, req.query));
    },
  );

  r.get(
    '/api/safety_interactions/dashboard',
    {
      config: { access: read },
      schema: {
        tags,
        summary: 'This month against the plan, six months of behaviours, top at-risk topics, open agreed actions, the next plans',
        response: { 200: siDashboardResponseSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(db, p.organizationId, (tx) => dashboard(tx, p.organization.timezone));
    },
  );

  r.get(
    '/api/safety_interactions/schedules',
    {
      config: { access: read },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Planned interactions of a period with their status (planned, done, missed), by date',
        querystring: siScheduleListQuerySchema,
        response: { 200: siScheduleListResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return { schedules: await inTenant(db, p.organizationId, (tx) => listSchedules(tx, req.query)) };
    },
  );

  r.post(
    '/api/safety_interactions/schedules',
    {
      config: { access: right('create') },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Plan an interaction: observer, site, date, note',
        body: siScheduleSchema,
        response: { 201: siScheduleResponseSchema, ...errors },
      },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const plan = await inTenant(db, p.organizationId, (tx) => createSchedule(tx, p, req.body));
      push(p.organizationId, 'created', plan.id);
      return reply.status(201).send(plan);
    },
  );

  r.patch(
    '/api/safety_interactions/schedules/:id',
    {
      config: { access: right('update') },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Change a plan',
        params: idParams,
        body: siScheduleSchema,
        response: { 200: siScheduleResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const plan = await inTenant(db, p.organizationId, (tx) => updateSchedule(tx, p, req.params.id, req.body));
      push(p.organizationId, 'updated', plan.id);
      return plan;
    },
  );

  r.delete(
    '/api/safety_interactions/schedules/:id',
    {
      config: { access: right('delete') },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Delete a plan (an interaction recorded for it stays)',
        params: idParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      await inTenant(db, p.organizationId, (tx) => deleteSchedule(tx, p, req.params.id));
      push(p.organizationId, 'removed', req.params.id);
      return { ok: true as const };
    },
  );

  r.get(
    '/api/safety_interactions/:id',
    {
      config: { access: read },
      attachValidation: true,
      schema: {
        tags,
        summary: 'One interaction with its people, behaviours and agreed actions',
        params: idParams,
        response: { 200: siResponseSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return inTenant(db, p.organizationId, (tx) => getInteraction(tx, p, req.params.id));
    },
  );

  r.post(
    '/api/safety_interactions',
    {
      config: { access: right('create') },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Record an interaction (draft or completed), with its agreed actions (source safety_interaction)',
        body: siCreateSchema,
        response: { 201: siResponseSchema, ...errors },
      },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const written = await inTenant(db, p.organizationId, (tx) => createInteraction(tx, deps, p, req.body));
      push(p.organizationId, 'created', written.interaction.id);
      await written.afterCommit();
      return reply.status(201).send(written.interaction);
    },
  );

  r.patch(
    '/api/safety_interactions/:id',
    {
      // Who may change an interaction depends on the record (its observer, or Observation update):
      // the service decides, first thing, inside the transaction.
      config: { access: read },
      attachValidation: true,
      schema: {
        tags,
        summary:
          'Change an interaction (the whole form; `actions` adds agreed actions). Its observer holding Observation create, or anyone holding Observation update',
        params: idParams,
        body: siCreateSchema,
        response: { 200: siResponseSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      // The same trial rule as every module write (the guard applies it to rights-guarded routes only).
      if (p.trialExpired) throw new AppError('free_trial_expired');
      // Without any right to write interactions the answer is "forbidden" before any field error.
      if (!can(p.access, 'Observation', 'create') && !can(p.access, 'Observation', 'update')) throw new AppError('forbidden');
      refuseInvalid(req);
      const written = await inTenant(db, p.organizationId, (tx) => updateInteraction(tx, deps, p, req.params.id, req.body));
      push(p.organizationId, 'updated', written.interaction.id);
      await written.afterCommit();
      return written.interaction;
    },
  );

  r.delete(
    '/api/safety_interactions/:id',
    {
      config: { access: right('delete') },
      attachValidation: true,
      schema: { tags, summary: 'Delete an interaction without agreed actions', params: idParams, response: { 200: okResponse, ...errors } },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      await inTenant(db, p.organizationId, (tx) => deleteInteraction(tx, p, req.params.id));
      push(p.organizationId, 'removed', req.params.id);
      return { ok: true as const };
    },
  );
}
