import {
  ACTION_LIST_KINDS,
  actionCategoryOptionsSchema,
  actionCreateSchema,
  actionDetailQuerySchema,
  actionDetailSchema,
  actionListQuerySchema,
  actionListResponseSchema,
  actionUpdateSchema,
  errorResponse,
  okResponse,
  translate,
  type ActionListItem,
  type ActionListKind,
  type Subject,
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
import { pagination } from '../../platform/http/list.js';
import { readUpload } from '../../platform/http/upload.js';
import { siteTimeZone, createActionsFor } from './service.js';
import { actionDetail, actionRow, allActions, categoryOptions, listActions, mayReadAction } from './queries.js';
import { addAttachment, removeAttachment, updateAction } from './update.js';

const tags = ['Actions'];
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  413: errorResponse,
  415: errorResponse,
};
const idParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });

/**
 * The lists of spec 001 §7 with the right that guards them (spec 000 §2 Actions table: the action
 * lists of observations, incidents and safety interactions need Incident read, audits Audit read).
 */
const LIST_GUARDS: Record<ActionListKind, Subject> = {
  all: 'Action',
  audit_action_datas: 'Audit',
  observation_action_datas: 'Incident',
  other_action_datas: 'Action',
  incident_action_datas: 'Incident',
  si_observation_action_datas: 'Incident',
};

function excelColumns(req: FastifyRequest): ExcelColumn<ActionListItem>[] {
  const t = (key: string) => translate(req.lang, `actions.${key}`);
  return [
    { header: t('fields.serial'), key: 'serial', width: 8, value: (a) => a.serial },
    { header: t('fields.description'), key: 'description', width: 48, value: (a) => a.description },
    { header: t('fields.status'), key: 'status', width: 14, value: (a) => t(`status.${a.status}`) },
    { header: t('fields.controlType'), key: 'control_type', width: 24, value: (a) => t(`controlType.${a.control_type}`) },
    { header: t('fields.responsible'), key: 'responsible', width: 24, value: (a) => a.responsible?.full_name },
    { header: t('fields.dueDate'), key: 'due_date', width: 12, value: (a) => a.due_date },
    { header: t('fields.site'), key: 'site', width: 24, value: (a) => a.site.name },
    { header: t('fields.category'), key: 'category', width: 20, value: (a) => a.category?.name },
    {
      header: t('fields.source'),
      key: 'source',
      width: 22,
      value: (a) => [t(`source.${a.source_type}`), a.source.label ?? a.source.serial].filter((x) => x !== null).join(' '),
    },
    { header: t('fields.remarks'), key: 'remarks', width: 40, value: (a) => a.remarks },
    { header: t('fields.createdBy'), key: 'created_by', width: 24, value: (a) => a.created_by?.full_name },
    { header: t('fields.createdAt'), key: 'created_at', width: 20, value: (a) => new Date(a.created_at) },
    { header: t('fields.completedAt'), key: 'completed_at', width: 20, value: (a) => (a.completed_at ? new Date(a.completed_at) : null) },
    { header: t('fields.closedAt'), key: 'closed_at', width: 20, value: (a) => (a.closed_at ? new Date(a.closed_at) : null) },
  ];
}

export function actionRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = deps.db.app;

  for (const kind of Object.keys(ACTION_LIST_KINDS) as ActionListKind[]) {
    r.get(
      `/api/actions/${kind}`,
      {
        config: { access: { subject: LIST_GUARDS[kind], action: 'read' } },
        attachValidation: true,
        schema: {
          tags,
          summary: `${kind === 'all' ? 'Actions of every source' : `Actions of source ${ACTION_LIST_KINDS[kind]}`}: a page (50) with the status tab counts, filtered and searched, or every filtered row as Excel (export_to_excel=true)`,
          querystring: actionListQuerySchema,
          response: { 200: actionListResponseSchema, ...errors },
        },
      },
      async (req, reply) => {
        refuseInvalid(req);
        const p = principalOf(req);
        const q = req.query;
        if (q.export_to_excel) {
          const rows = await inTenant(db, p.organizationId, (tx) => allActions(tx, kind, q));
          return sendWorkbook(
            reply,
            translate(req.lang, 'actions.list.exportName'),
            translate(req.lang, 'actions.excel.sheet'),
            excelColumns(req),
            rows,
          );
        }
        const page = await inTenant(db, p.organizationId, (tx) => listActions(tx, kind, q));
        return { actions: page.actions, pagination: pagination(page.total, q.page, q.per_page), counts: page.counts };
      },
    );
  }

  r.get(
    '/api/actions/categories',
    {
      // The form's picker: whoever may open an action form may see the category names (no Category right needed).
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Active categories of the actions module, for the action form',
        response: { 200: actionCategoryOptionsSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return { categories: await inTenant(db, p.organizationId, (tx) => categoryOptions(tx)) };
    },
  );

  r.get(
    '/api/actions/:id',
    {
      config: { access: { session: true } },
      attachValidation: true,
      schema: {
        tags,
        summary:
          "One action with its attachments, source and history. Readable with Action read, the right of its source's list, or as its responsible person; actionable_type must match its source",
        params: idParams,
        querystring: actionDetailQuerySchema,
        response: { 200: actionDetailSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return inTenant(db, p.organizationId, async (tx) => {
        const row = await actionRow(tx, req.params.id);
        // Asked through another list than its own: not this list's action.
        if (req.query.actionable_type && req.query.actionable_type !== row.sourceType) throw new AppError('not_found');
        if (!mayReadAction(p, row)) throw new AppError('forbidden');
        return actionDetail(tx, p, row.id);
      });
    },
  );

  r.patch(
    '/api/actions/:id',
    {
      config: { access: { session: true } },
      attachValidation: true,
      schema: {
        tags,
        summary:
          'Edit an action or move its status along the allowed transitions. Action update for everything; its responsible person alone may start, complete (with remarks) and report on it',
        params: idParams,
        body: actionUpdateSchema,
        response: { 200: actionDetailSchema, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const { afterCommit, detail } = await inTenant(db, p.organizationId, async (tx) => {
        const done = await updateAction(tx, deps, p, req.params.id, req.body, req.lang);
        return { afterCommit: done, detail: await actionDetail(tx, p, req.params.id) };
      });
      await afterCommit();
      return detail;
    },
  );

  // The spec's path ends with a slash; the plain path is the same call.
  for (const path of ['/api/actions/', '/api/actions'] as const)
    r.post(
      path,
      {
        config: { access: { subject: 'Action', action: 'create' } },
        attachValidation: true,
        schema: {
          tags,
          summary: 'Raise an action of its own (source "other") at a site',
          body: actionCreateSchema,
          response: { 201: actionDetailSchema, ...errors },
        },
      },
      async (req, reply) => {
        refuseInvalid(req);
        const p = principalOf(req);
        const body = req.body;
        const { afterCommit, detail } = await inTenant(db, p.organizationId, async (tx) => {
          if (!(await siteTimeZone(tx, body.site_id, true)))
            throw new AppError('validation_failed', { fields: { site_id: 'actions.validation.siteUnknown' } });
          const { site_id: siteId, image_description: imageDescription, ...item } = body;
          const created = await createActionsFor(
            tx,
            deps,
            p,
            { type: 'other', id: null, siteId },
            [item],
            { imageDescription },
            (_n, field) => field,
          );
          return { afterCommit: created.afterCommit, detail: await actionDetail(tx, p, created.actions[0]!.id) };
        });
        await afterCommit();
        return reply.status(201).send(detail);
      },
    );

  r.post(
    '/api/actions/:id/attachments',
    {
      config: { access: { session: true } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Attach a file or photo (multipart field "file"; type checked by content; counted against the storage quota)',
        params: idParams,
        consumes: ['multipart/form-data'],
        response: { 201: actionDetailSchema, ...errors },
      },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      // The action is looked up first so another organisation's id is "not found" before any byte is read.
      await inTenant(db, p.organizationId, async (tx) => {
        const row = await actionRow(tx, req.params.id);
        if (!mayReadAction(p, row)) throw new AppError('forbidden');
      });
      const upload = await readUpload(req);
      const { afterCommit, detail } = await inTenant(db, p.organizationId, async (tx) => {
        const added = await addAttachment(tx, deps, p, req.params.id, upload);
        return { afterCommit: added.afterCommit, detail: await actionDetail(tx, p, req.params.id) };
      });
      await afterCommit();
      return reply.status(201).send(detail);
    },
  );

  r.delete(
    '/api/actions/:id/attachments/:fileId',
    {
      config: { access: { session: true } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Remove a file from an action (its space returns to the quota)',
        params: idParams.extend({ fileId: z.uuid({ message: 'validation.invalid' }) }),
        response: { 200: okResponse, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const afterCommit = await inTenant(db, p.organizationId, async (tx) => {
        const row = await actionRow(tx, req.params.id);
        if (!mayReadAction(p, row)) throw new AppError('forbidden');
        return removeAttachment(tx, deps, p, req.params.id, req.params.fileId);
      });
      await afterCommit();
      return { ok: true as const };
    },
  );
}
