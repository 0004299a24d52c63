import {
  FILE_RULES,
  can,
  errorResponse,
  observationAttachmentResponse,
  observationCountsQuery,
  observationCreateBody,
  observationCreatedResponse,
  observationFormDataResponse,
  observationGuestBody,
  observationGuestFormDataResponse,
  observationHazardTypesResponse,
  observationImportErrorSchema,
  observationImportResultResponse,
  observationListQuery,
  observationListResponse,
  observationResponse,
  observationStatusCountsResponse,
  observationUpdateBody,
  okResponse,
  translate,
  type ObservationListItem,
} from '@bulwark/domain';
import { and, eq, isNull, TransactionRollbackError } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inTenant } from '../../platform/db/db.js';
import { files } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { readWorkbookRows, sendWorkbook, type ExcelColumn } from '../../platform/export/excel.js';
import { principalOf, requireTenant } from '../../platform/http/access.js';
import { pagination } from '../../platform/http/list.js';
import { limit } from '../../platform/http/rate-limit.js';
import { readUpload } from '../../platform/http/upload.js';
import { refuseInvalid } from '../../platform/http/validation.js';
import { importObservations, importTemplate } from './import.js';
import { allObservations, formData, guestFormData, hazardTypes, listObservations, statusCounts } from './list.js';
import { renderObservationPdf } from './report.js';
import { createGuestObservation, createObservation, deleteObservation, updateObservation } from './service.js';
import { observationAttachments } from './tables.js';
import { observationView } from './view.js';

const tags = ['Observations'];
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  413: errorResponse,
  415: errorResponse,
  429: errorResponse,
};
const idParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Guests: reports and uploads per address and hour. */
export const GUEST_REPORTS_PER_HOUR = 10;
export const GUEST_UPLOADS_PER_HOUR = 30;

function excelColumns(req: FastifyRequest): ExcelColumn<ObservationListItem>[] {
  const t = (key: string, vars?: Record<string, string | number>) => translate(req.lang, key, vars);
  return [
    { header: t('observations.fields.serial'), key: 'serial', value: (o) => o.serial_label },
    { header: t('observations.fields.type'), key: 'type', width: 18, value: (o) => t(`categories.types.${o.type}`) },
    { header: t('observations.fields.category'), key: 'category', width: 20, value: (o) => o.category?.name },
    { header: t('observations.fields.site'), key: 'site', width: 22, value: (o) => o.site.name },
    { header: t('observations.fields.area'), key: 'area', width: 20, value: (o) => o.site_node_name },
    { header: t('observations.fields.observedAt'), key: 'observed_at', width: 18, value: (o) => o.observed_at.replace('T', ' ') },
    { header: t('observations.fields.riskLevel'), key: 'risk_level', value: (o) => t(`observations.riskLevels.${o.risk_level}`) },
    { header: t('observations.fields.status'), key: 'status', value: (o) => t(`observations.statuses.${o.status}`) },
    { header: t('observations.fields.description'), key: 'description', width: 40, value: (o) => o.description },
    { header: t('observations.fields.reporter'), key: 'reporter', width: 20, value: (o) => o.reporter_name ?? t('observations.anonymous') },
    {
      header: t('observations.fields.actionRequired'),
      key: 'action_required',
      value: (o) => t(o.action_required ? 'observations.fields.yes' : 'observations.fields.no'),
    },
    {
      header: t('observations.fields.actions'),
      key: 'actions',
      width: 18,
      value: (o) => t('observations.list.actionsProgress', { done: o.actions_done, total: o.actions_total }),
    },
    { header: t('observations.fields.source'), key: 'source', value: (o) => t(`observations.sources.${o.source}`) },
    { header: t('observations.fields.createdAt'), key: 'created_at', width: 20, value: (o) => o.created_at.slice(0, 16).replace('T', ' ') },
  ];
}

/** The organisation of the sub-domain, for signed-out guests: it must exist and be active. */
async function guestTenant(req: FastifyRequest, deps: AppDeps) {
  const tenant = await requireTenant(req, deps.db.app, deps.config.baseDomain);
  if (tenant.isPlatform) throw new AppError('tenant_not_found');
  if (tenant.status !== 'Active') throw new AppError('organization_inactive');
  return tenant;
}

export function observationRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const db = deps.db.app;

  r.get(
    '/api/v2/observations',
    {
      config: { access: { subject: 'Observation', action: 'read' } },
      attachValidation: true,
      schema: {
        tags,
        summary:
          'Observations: a page (15 by default) filtered by status tab, site, type, risk level, local date range and keywords; export_to_excel=true gives exactly the filtered rows as a workbook',
        querystring: observationListQuery,
        response: { 200: observationListResponse, ...errors },
      },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const q = req.query;
      if (q.export_to_excel) {
        const rows = await inTenant(db, p.organizationId, (tx) => allObservations(tx, q));
        return sendWorkbook(
          reply,
          translate(req.lang, 'observations.title'),
          translate(req.lang, 'observations.title'),
          excelColumns(req),
          rows,
        );
      }
      const page = await inTenant(db, p.organizationId, (tx) => listObservations(tx, q));
      return { observations: page.observations, pagination: pagination(page.total, q.page, q.per_page) };
    },
  );

  r.get(
    '/api/v2/observations/period_status_counts',
    {
      config: { access: { subject: 'Observation', action: 'read' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'How many observations each status tab holds for the period and filters',
        querystring: observationCountsQuery,
        response: { 200: observationStatusCountsResponse, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return inTenant(db, p.organizationId, (tx) => statusCounts(tx, req.query));
    },
  );

  r.get(
    '/api/observations/obs_data',
    {
      config: { access: { subject: 'Observation', action: 'read' } },
      schema: {
        tags,
        summary:
          'What the observation form offers: active sites with their areas, types with categories, risk levels, control types, action categories, people',
        response: { 200: observationFormDataResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(db, p.organizationId, formData);
    },
  );

  r.get(
    '/api/observations/obs_hazard_types',
    {
      config: { access: { subject: 'Observation', action: 'read' } },
      schema: {
        tags,
        summary: 'Observation types with their active categories and sub-categories',
        response: { 200: observationHazardTypesResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(db, p.organizationId, hazardTypes);
    },
  );

  r.get(
    '/api/observations/outer_obs_data',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: "The signed-out guest form of the sub-domain's organisation: its active sites, types and risk levels (no people)",
        response: { 200: observationGuestFormDataResponse, ...errors },
      },
    },
    async (req) => {
      const tenant = await guestTenant(req, deps);
      return inTenant(db, tenant.id, guestFormData);
    },
  );

  // --- Attachments: uploaded first, then named in attachment_ids -----------------------------------

  r.post(
    '/api/observations/attachments',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Upload a photo or document (multipart field "file"; type checked by content, 10 MB, counted against the storage quota)',
        consumes: ['multipart/form-data'],
        response: { 201: observationAttachmentResponse, ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      if (!can(p.access, 'Observation', 'create') && !can(p.access, 'Observation', 'update')) throw new AppError('forbidden');
      const upload = await readUpload(req, FILE_RULES.attachment.maxBytes);
      const file = await inTenant(db, p.organizationId, (tx) =>
        deps.storage.store(tx, { purpose: 'attachment', fileName: upload.fileName, bytes: upload.bytes, uploadedBy: p.userId }),
      );
      return reply.status(201).send({ file });
    },
  );

  r.delete(
    '/api/observations/attachments/:id',
    {
      config: { access: { session: true } },
      attachValidation: true,
      schema: {
        tags,
        summary: "Remove one's own upload that no observation uses yet (a linked file is removed by editing the observation)",
        params: idParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const purge = await inTenant(db, p.organizationId, async (tx) => {
        const [own] = await tx
          .select({ id: files.id })
          .from(files)
          .leftJoin(observationAttachments, eq(observationAttachments.fileId, files.id))
          .where(
            and(
              eq(files.id, req.params.id),
              eq(files.uploadedBy, p.userId),
              eq(files.purpose, 'attachment'),
              isNull(observationAttachments.fileId),
            ),
          );
        if (!own) throw new AppError('not_found');
        return (await deps.storage.remove(tx, own.id))?.purge;
      });
      await purge?.();
      return { ok: true as const };
    },
  );

  r.post(
    '/api/observations/outer/attachments',
    {
      config: { access: { public: true } },
      // Counted before anything is read, so floods of bad files count too.
      onRequest: (req) => limit(deps.db.app, `observation-guest-upload:${req.ip}`, GUEST_UPLOADS_PER_HOUR, 3600),
      schema: {
        tags,
        summary: 'A signed-out guest uploads a photo or document for their report (rate-limited per address)',
        consumes: ['multipart/form-data'],
        response: { 201: observationAttachmentResponse, ...errors },
      },
    },
    async (req, reply) => {
      const tenant = await guestTenant(req, deps);
      const upload = await readUpload(req, FILE_RULES.attachment.maxBytes);
      const file = await inTenant(db, tenant.id, (tx) =>
        deps.storage.store(tx, { purpose: 'attachment', fileName: upload.fileName, bytes: upload.bytes, uploadedBy: null }),
      );
      return reply.status(201).send({ file });
    },
  );

  // --- Guest report ---------------------------------------------------------------------------------

  r.post(
    '/api/observations/outer',
    {
      config: { access: { public: true } },
      onRequest: (req) => limit(deps.db.app, `observation-guest:${req.ip}`, GUEST_REPORTS_PER_HOUR, 3600),
      attachValidation: true,
      schema: {
        tags,
        summary:
          'A signed-out guest reports an observation to the organisation of the sub-domain (optionally anonymous; rate-limited per address)',
        body: observationGuestBody,
        response: { 201: observationCreatedResponse, ...errors },
      },
    },
    async (req, reply) => {
      const tenant = await guestTenant(req, deps);
      refuseInvalid(req);
      const created = await inTenant(db, tenant.id, (tx) => createGuestObservation(tx, deps, req.body));
      await created.afterCommit();
      return reply
        .status(201)
        .send({ id: created.row.id, serial: created.row.serial, serial_label: `OBS-${String(created.row.serial).padStart(6, '0')}` });
    },
  );

  // --- Import from Excel ----------------------------------------------------------------------------

  r.get(
    '/api/observations_bulk_upload/template',
    {
      config: { access: { subject: 'Observation', action: 'create' } },
      schema: {
        tags,
        summary: 'The Excel template of the import, with a sheet of valid sites, areas, types, categories, risk levels and control types',
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const body = await inTenant(db, p.organizationId, (tx) => importTemplate(tx, req.lang));
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', 'attachment; filename="observations-import-template.xlsx"')
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  r.post(
    '/api/observations_bulk_upload',
    {
      config: { access: { subject: 'Observation', action: 'create' } },
      schema: {
        tags,
        summary:
          'Import every observation of a workbook, or none when any row is wrong (multipart field "file"); errors name the row and column',
        consumes: ['multipart/form-data'],
        response: {
          ...errors,
          200: observationImportResultResponse,
          400: errorResponse.extend({ rows: z.array(observationImportErrorSchema).optional() }),
        },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const upload = await readUpload(req, FILE_RULES.workbook.maxBytes);
      const sheet = await readWorkbookRows(upload.bytes);
      // Filled inside the transaction, read after it (a holder, because the rollback ends the callback).
      const outcome: { result?: Awaited<ReturnType<typeof importObservations>> } = {};
      try {
        await inTenant(db, p.organizationId, async (tx) => {
          outcome.result = await importObservations(tx, deps, p, sheet, req.lang);
          // Any refused row: nothing of this import may stay.
          if (outcome.result.errors.length > 0) tx.rollback();
        });
      } catch (err) {
        if (!(err instanceof TransactionRollbackError)) throw err;
      }
      const result = outcome.result;
      if (!result) throw new AppError('internal');
      if (result.errors.length > 0) {
        const fields = Object.fromEntries(result.errors.map((e) => [`${e.row}.${e.field}`, e.message]));
        return reply
          .status(400)
          .send({ errors: [translate(req.lang, 'observations.import.failed')], code: 'validation_failed', fields, rows: result.errors });
      }
      await result.afterCommit();
      return { imported: result.imported, errors: [] };
    },
  );

  // --- One observation ------------------------------------------------------------------------------

  r.get(
    '/api/observations/:id',
    {
      config: { access: { subject: 'Observation', action: 'read' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'One observation with its actions, attachments, history and what the requester may do',
        params: idParams,
        response: { 200: observationResponse, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      return { observation: await inTenant(db, p.organizationId, (tx) => observationView(tx, p, req.params.id)) };
    },
  );

  r.get(
    '/api/observations/:id/report.pdf',
    {
      config: { access: { subject: 'Observation', action: 'read' } },
      attachValidation: true,
      schema: { tags, summary: "The observation as a PDF report in the requester's language", params: idParams },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const pdf = await inTenant(db, p.organizationId, async (tx) =>
        renderObservationPdf(tx, deps, await observationView(tx, p, req.params.id), req.lang),
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${pdf.fileName}"`)
        .header('cache-control', 'no-store')
        .send(pdf.bytes);
    },
  );

  r.post(
    '/api/observations',
    {
      config: { access: { subject: 'Observation', action: 'create' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Report an observation, with its actions when an action is required (all in one transaction)',
        body: observationCreateBody,
        response: { 201: observationCreatedResponse, ...errors },
      },
    },
    async (req, reply) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const created = await inTenant(db, p.organizationId, (tx) => createObservation(tx, deps, p, req.body));
      await created.afterCommit();
      return reply
        .status(201)
        .send({ id: created.row.id, serial: created.row.serial, serial_label: `OBS-${String(created.row.serial).padStart(6, '0')}` });
    },
  );

  r.patch(
    '/api/observations/:id',
    {
      // The service checks the right each part needs: update (fields, actions), close (closing).
      config: { access: { subject: 'Observation', action: 'read' } },
      attachValidation: true,
      schema: {
        tags,
        summary:
          'Edit an observation, add actions, or close it (close: { remarks }; needs the close right and every action completed or closed)',
        params: idParams,
        body: observationUpdateBody,
        response: { 200: observationResponse, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const afterCommit = await inTenant(db, p.organizationId, (tx) => updateObservation(tx, deps, p, req.params.id, req.body));
      await afterCommit();
      return { observation: await inTenant(db, p.organizationId, (tx) => observationView(tx, p, req.params.id)) };
    },
  );

  r.delete(
    '/api/observations/:id',
    {
      config: { access: { subject: 'Observation', action: 'delete' } },
      attachValidation: true,
      schema: {
        tags,
        summary: 'Delete an observation that has no actions, with its attachments',
        params: idParams,
        response: { 200: okResponse, ...errors },
      },
    },
    async (req) => {
      refuseInvalid(req);
      const p = principalOf(req);
      const afterCommit = await inTenant(db, p.organizationId, (tx) => deleteObservation(tx, deps, p, req.params.id));
      await afterCommit();
      return { ok: true as const };
    },
  );
}
