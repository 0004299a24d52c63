import { formatIncidentSerial, incidentsApi as api, pagination } from '@bulwark/domain';
import { and, eq } from 'drizzle-orm';
import { guestReporter } from '../../platform/auth/guests.js';
import { files } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { requireTenant } from '../../platform/http/access.js';
import { FileAnswer } from '../../platform/http/answers.js';
import { limit } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { unlinkedCondition } from '../../platform/storage/links.js';
import { exportList } from '../list-exports/service.js';
import { createGuestIncident, createIncident } from './create.js';
import { incidentExport, storedIncidentQuery } from './export.js';
import { incidentCategories, incidentFormData, incidentGuestFormData } from './form-data.js';
import { listIncidents, statusCounts } from './list.js';
import { oshaRoutes } from './osha-routes.js';
import { renderIncidentPdf } from './pdf.js';
import { incidentContext } from './record.js';
import { stepRoutes } from './step-routes.js';
import { incidentView } from './view.js';

/** Guests of the public form: reports and uploads per address and hour, uploads per organisation. */
export const GUEST_INCIDENTS_PER_HOUR = 10;
export const GUEST_INCIDENT_UPLOADS_PER_HOUR = 30;
export const GUEST_INCIDENT_UPLOADS_PER_ORGANIZATION_PER_HOUR = 100;

const created = (c: { id: string; serial: number }) => ({ id: c.id, serial: c.serial, serial_label: formatIncidentSerial(c.serial) });

export function incidentRoutes(r: Router) {
  const { deps } = r;

  // A guest's lists, counts and exports hold its own reports only (guests: 'own').
  r.route(api.list, async ({ tx, principal, query, lang, afterCommit }) => {
    const q = { ...query, reportedBy: guestReporter(principal) };
    if (query.export_to_excel) {
      // Every filtered row: in the request up to 10,000, past that by a job (issue 13).
      return exportList({ tx, deps, principal, lang, afterCommit }, 'incidents', storedIncidentQuery(q), incidentExport(tx, q, lang));
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
