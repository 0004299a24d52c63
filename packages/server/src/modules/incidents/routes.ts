import { formatIncidentSerial, incidentsApi as api, pagination, translate, type IncidentListItem, type Language } from '@bulwark/domain';
import { and, eq } from 'drizzle-orm';
import { guestReporter } from '../../platform/auth/guests.js';
import { files } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { workbookAnswer, type ExcelColumn } from '../../platform/export/excel.js';
import { requireTenant } from '../../platform/http/access.js';
import { FileAnswer } from '../../platform/http/answers.js';
import { limit } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { unlinkedCondition } from '../../platform/storage/links.js';
import { createGuestIncident, createIncident } from './create.js';
import { incidentCategories, incidentFormData, incidentGuestFormData } from './form-data.js';
import { allIncidents, listIncidents, statusCounts } from './list.js';
import { oshaRoutes } from './osha-routes.js';
import { renderIncidentPdf } from './pdf.js';
import { incidentContext } from './record.js';
import { stepRoutes } from './step-routes.js';
import { incidentView } from './view.js';

/** Guests of the public form: reports and uploads per address and hour, uploads per organisation. */
export const GUEST_INCIDENTS_PER_HOUR = 10;
export const GUEST_INCIDENT_UPLOADS_PER_HOUR = 30;
export const GUEST_INCIDENT_UPLOADS_PER_ORGANIZATION_PER_HOUR = 100;

function excelColumns(lang: Language): ExcelColumn<IncidentListItem>[] {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  return [
    { header: t('incidents.fields.serial'), key: 'serial', value: (o) => o.serial_label },
    { header: t('incidents.fields.type'), key: 'type', width: 18, value: (o) => t(`categories.types.${o.type}`) },
    { header: t('incidents.fields.category'), key: 'category', width: 20, value: (o) => o.category?.name },
    { header: t('incidents.fields.site'), key: 'site', width: 22, value: (o) => o.site.name },
    { header: t('incidents.fields.area'), key: 'area', width: 20, value: (o) => o.site_node_name },
    { header: t('incidents.fields.occurredAt'), key: 'occurred_at', width: 18, value: (o) => o.occurred_at.replace('T', ' ') },
    {
      header: t('incidents.fields.severity'),
      key: 'severity',
      value: (o) => (o.severity ? t(`incidents.severities.${o.severity}`) : t('incidents.ratingPending')),
    },
    {
      header: t('incidents.fields.likelihood'),
      key: 'likelihood',
      value: (o) => (o.likelihood ? t(`incidents.likelihoods.${o.likelihood}`) : ''),
    },
    {
      header: t('incidents.fields.riskLevel'),
      key: 'risk_level',
      value: (o) => (o.risk_level ? t(`incidents.riskLevels.${o.risk_level}`) : ''),
    },
    { header: t('incidents.fields.status'), key: 'status', value: (o) => t(`incidents.statuses.${o.status}`) },
    {
      header: t('incidents.fields.investigationState'),
      key: 'state',
      width: 18,
      value: (o) => t(`incidents.investigationStates.${o.investigation_state}`),
    },
    { header: t('incidents.fields.currentStep'), key: 'step', value: (o) => o.current_step },
    { header: t('incidents.fields.lead'), key: 'lead', width: 20, value: (o) => o.lead?.full_name },
    { header: t('incidents.fields.targetDate'), key: 'target_date', value: (o) => o.target_date },
    { header: t('incidents.fields.victims'), key: 'victims', width: 28, value: (o) => o.victim_names.join(', ') },
    { header: t('incidents.fields.description'), key: 'description', width: 40, value: (o) => o.description },
    { header: t('incidents.fields.reporter'), key: 'reporter', width: 20, value: (o) => o.reporter_name },
    {
      header: t('incidents.fields.actions'),
      key: 'actions',
      width: 18,
      value: (o) => t('incidents.fields.actionsProgress', { done: o.actions_done, total: o.actions_total }),
    },
    {
      header: t('incidents.fields.oshaRecordable'),
      key: 'osha',
      value: (o) => t(o.osha_recordable ? 'incidents.fields.yes' : 'incidents.fields.no'),
    },
    { header: t('incidents.fields.source'), key: 'source', value: (o) => t(`incidents.sources.${o.source}`) },
    { header: t('incidents.fields.createdAt'), key: 'created_at', width: 20, value: (o) => o.created_at.slice(0, 16).replace('T', ' ') },
  ];
}

const created = (c: { id: string; serial: number }) => ({ id: c.id, serial: c.serial, serial_label: formatIncidentSerial(c.serial) });

export function incidentRoutes(r: Router) {
  const { deps } = r;

  // A guest's lists, counts and exports hold its own reports only (guests: 'own').
  r.route(api.list, async ({ tx, principal, query, lang }) => {
    const q = { ...query, reportedBy: guestReporter(principal) };
    if (query.export_to_excel) {
      const title = translate(lang, 'incidents.title');
      return workbookAnswer(title, title, excelColumns(lang), await allIncidents(tx, q));
    }
    const page = await listIncidents(tx, q);
    return { incidents: page.incidents, pagination: pagination(page.total, query.page, query.per_page) };
  });
  r.route(api.statusCounts, ({ tx, principal, query }) => statusCounts(tx, { ...query, reportedBy: guestReporter(principal) }));
  r.route(api.formData, ({ tx, principal }) => incidentFormData(tx, principal.kind !== 'guest'));
  r.route(api.categories, ({ tx }) => incidentCategories(tx));
  r.guest(api.guestFormData, ({ tx }) => incidentGuestFormData(tx));

  // --- Files: uploaded first, then named in attachment_ids or evidence_ids -------------------------

  r.route(api.uploadAttachment, async ({ tx, principal: p, upload }) => ({
    file: await deps.storage.store(tx, {
      purpose: 'attachment',
      fileName: upload.fileName,
      bytes: upload.file,
      uploadedBy: p.userId,
      // A self-registered guest is an outsider too: its upload counts once a report links it.
      pending: p.kind === 'guest',
    }),
  }));

  r.route(
    api.uploadForIncident,
    async ({ tx, principal: p, upload }) => ({
      file: await deps.storage.store(tx, { purpose: 'attachment', fileName: upload.fileName, bytes: upload.file, uploadedBy: p.userId }),
    }),
    {
      // Only someone who may edit the report or the facts of this incident, before a byte is read.
      beforeUpload: async ({ tx, principal, params }) => {
        const ctx = await incidentContext(tx, principal, params.id);
        if (!ctx.abilities.edit_report && !ctx.abilities.edit_investigation)
          throw new AppError('forbidden', { messageKey: 'incidents.validation.notYours' });
      },
    },
  );

  r.route(api.removeAttachment, async ({ tx, principal: p, params, afterCommit }) => {
    const [own] = await tx
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.id, params.id), eq(files.uploadedBy, p.userId), eq(files.purpose, 'attachment'), await unlinkedCondition(tx)));
    if (!own) throw new AppError('not_found');
    const removed = await deps.storage.remove(tx, own.id);
    if (removed) afterCommit(removed.purge);
    return { ok: true as const };
  });

  r.guest(
    api.guestUploadAttachment,
    // Held apart from the quota until a submitted report links it (storage.link), swept a day later if none does.
    async ({ tx, upload }) => ({
      file: await deps.storage.store(tx, {
        purpose: 'attachment',
        fileName: upload.fileName,
        bytes: upload.file,
        uploadedBy: null,
        pending: true,
      }),
    }),
    // Counted before anything is read, so floods of bad files count too: per address and per organisation.
    {
      onRequest: async (req) => {
        await limit(deps.db.app, `incident-guest-upload:${req.ip}`, GUEST_INCIDENT_UPLOADS_PER_HOUR, 3600);
        const tenant = await requireTenant(req, deps.db.app, deps.config.baseDomain);
        await limit(deps.db.app, `incident-guest-upload-org:${tenant.id}`, GUEST_INCIDENT_UPLOADS_PER_ORGANIZATION_PER_HOUR, 3600);
      },
    },
  );

  // --- Reports (step 1) ----------------------------------------------------------------------------

  r.guest(
    api.guestCreate,
    async ({ tx, body, afterCommit }) => {
      const c = await createGuestIncident(tx, deps, body);
      afterCommit(c.afterCommit);
      return created(c);
    },
    { onRequest: (req) => limit(deps.db.app, `incident-guest:${req.ip}`, GUEST_INCIDENTS_PER_HOUR, 3600) },
  );

  r.route(api.create, async ({ tx, principal, body, afterCommit }) => {
    const c = await createIncident(tx, deps, principal, body.incident);
    afterCommit(c.afterCommit);
    return created(c);
  });

  r.route(api.get, async ({ tx, principal, params }) => ({ incident: await incidentView(tx, principal, params.id) }));

  r.route(api.reportPdf, async ({ tx, principal, params, lang }) => {
    const pdf = await renderIncidentPdf(await incidentView(tx, principal, params.id), lang);
    return new FileAnswer(pdf.bytes, 'application/pdf', pdf.fileName, { disposition: 'inline' });
  });

  stepRoutes(r);
  oshaRoutes(r);
}
