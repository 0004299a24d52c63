import { can, OBSERVATION_IMPORT_MAX_ROWS, observationsApi as api, searchPagination } from '@bulwark/domain';
import { and, eq, isNull } from 'drizzle-orm';
import { guestReporter } from '../../platform/auth/guests.js';
import type { Principal } from '../../platform/auth/principal.js';
import { files } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { readWorkbookRows } from '../../platform/export/excel.js';
import { requireTenant } from '../../platform/http/access.js';
import { FileAnswer, XLSX_TYPE } from '../../platform/http/answers.js';
import { limit, limitImports } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { exportList } from '../list-exports/service.js';
import { observationExport, storedObservationQuery } from './export.js';
import { importObservations, importTemplate } from './import.js';
import { formData, guestFormData, hazardTypes, listObservations, statusCounts } from './list.js';
import { renderObservationPdf } from './report.js';
import { createGuestObservation, createObservation, deleteObservation, updateObservation } from './service.js';
import { observationAttachments } from './tables.js';
import { observationView } from './view.js';

/** Guests: reports and uploads per address and hour. */
export const GUEST_REPORTS_PER_HOUR = 10;
export const GUEST_UPLOADS_PER_HOUR = 30;
/** Guests' uploads per organisation and hour, whatever their addresses: a botnet fills no disk either. */
export const GUEST_UPLOADS_PER_ORGANIZATION_PER_HOUR = 100;

/** Uploading is for whoever may write an observation: create or update. */
function writesObservations(p: Principal): void {
  if (!can(p.access, 'Observation', 'create') && !can(p.access, 'Observation', 'update')) throw new AppError('forbidden');
}

/** The lists and counts only read (an export aside): no transaction, a read-only connection (route.ts). */
const READ = { database: 'read' } as const;

const serialLabel = (serial: number) => `OBS-${String(serial).padStart(6, '0')}`;

export function observationRoutes(r: Router) {
  const { deps } = r;

  // A guest's lists, counts and exports hold its own reports only (guests: 'own').
  r.route(
    api.list,
    async ({ tx, principal, query, lang, afterCommit }) => {
      const q = { ...query, reportedBy: guestReporter(principal) };
      if (query.export_to_excel) {
        // Every filtered row: in the request up to 10,000, past that by a job (issue 13).
        return exportList(
          { tx, deps, principal, lang, afterCommit },
          'observations',
          storedObservationQuery(q),
          observationExport(tx, q, lang),
        );
      }
      const page = await listObservations(tx, q);
      return { observations: page.observations, pagination: searchPagination(page.total, page.totalCapped, query.page, query.per_page) };
    },
    READ,
  );

  r.route(api.statusCounts, ({ tx, principal, query }) => statusCounts(tx, { ...query, reportedBy: guestReporter(principal) }), READ);
  r.route(api.formData, ({ tx, principal }) => formData(tx, principal.kind !== 'guest'));
  r.route(api.hazardTypes, ({ tx }) => hazardTypes(tx));
  r.guest(api.guestFormData, ({ tx }) => guestFormData(tx));

  // --- Attachments: uploaded first, then named in attachment_ids -----------------------------------

  r.route(
    api.uploadAttachment,
    async ({ tx, principal: p, upload }) => ({
      file: await deps.storage.store(tx, {
        purpose: 'attachment',
        fileName: upload.fileName,
        bytes: upload.file,
        uploadedBy: p.userId,
        // A self-registered guest is an outsider too: its upload counts once a report links it.
        pending: p.kind === 'guest',
      }),
    }),
    { authorize: writesObservations },
  );

  r.route(api.removeAttachment, async ({ tx, principal: p, params, afterCommit }) => {
    const [own] = await tx
      .select({ id: files.id })
      .from(files)
      .leftJoin(observationAttachments, eq(observationAttachments.fileId, files.id))
      .where(
        and(
          eq(files.id, params.id),
          eq(files.uploadedBy, p.userId),
          eq(files.purpose, 'attachment'),
          isNull(observationAttachments.fileId),
        ),
      );
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
    // Counted before anything is read, so floods of bad files count too: per address, and per
    // organisation, so that many addresses together are held to a bound as well.
    {
      onRequest: async (req) => {
        await limit(deps.db.app, `observation-guest-upload:${req.ip}`, GUEST_UPLOADS_PER_HOUR, 3600);
        const tenant = await requireTenant(req, deps.db.app, deps.config.baseDomain);
        await limit(deps.db.app, `observation-guest-upload-org:${tenant.id}`, GUEST_UPLOADS_PER_ORGANIZATION_PER_HOUR, 3600);
      },
    },
  );

  // --- Reports -------------------------------------------------------------------------------------

  r.guest(
    api.guestCreate,
    async ({ tx, body, afterCommit }) => {
      const created = await createGuestObservation(tx, deps, body);
      afterCommit(created.afterCommit);
      return { id: created.row.id, serial: created.row.serial, serial_label: serialLabel(created.row.serial) };
    },
    { onRequest: (req) => limit(deps.db.app, `observation-guest:${req.ip}`, GUEST_REPORTS_PER_HOUR, 3600) },
  );

  r.route(api.create, async ({ tx, principal, body, afterCommit }) => {
    const created = await createObservation(tx, deps, principal, body);
    afterCommit(created.afterCommit);
    return { id: created.row.id, serial: created.row.serial, serial_label: serialLabel(created.row.serial) };
  });

  r.route(api.get, async ({ tx, principal, params }) => ({ observation: await observationView(tx, principal, params.id) }));

  r.route(api.reportPdf, async ({ tx, principal, params, lang }) => {
    const pdf = await renderObservationPdf(tx, deps, await observationView(tx, principal, params.id), lang);
    return new FileAnswer(pdf.bytes, 'application/pdf', pdf.fileName, { disposition: 'inline' });
  });

  r.route(api.update, async ({ tx, principal, params, body, afterCommit }) => {
    afterCommit(await updateObservation(tx, deps, principal, params.id, body));
    return { observation: await observationView(tx, principal, params.id) };
  });

  r.route(api.remove, async ({ tx, principal, params, afterCommit }) => {
    afterCommit(await deleteObservation(tx, deps, principal, params.id));
    return { ok: true as const };
  });

  // --- Import from Excel ----------------------------------------------------------------------------

  r.route(
    api.importTemplate,
    async ({ tx, lang }) => new FileAnswer(await importTemplate(tx, lang), XLSX_TYPE, 'observations-import-template.xlsx'),
  );

  r.route(
    api.import,
    async ({ tx, principal, upload, lang, afterCommit }) => {
      const sheet = await readWorkbookRows(upload.bytes, {
        maxRows: OBSERVATION_IMPORT_MAX_ROWS,
        tooManyKey: 'observations.validation.importTooMany',
      });
      const result = await importObservations(tx, deps, principal, sheet, lang);
      if (result.errors.length > 0) {
        // Any refused row: nothing of this import may stay (the refusal rolls the transaction back).
        const fields = Object.fromEntries(result.errors.map((e) => [`${e.row}.${e.field}`, e.message]));
        throw new AppError('validation_failed', { messageKey: 'observations.import.failed', fields, extra: { rows: result.errors } });
      }
      afterCommit(result.afterCommit);
      return { imported: result.imported, errors: [] };
    },
    { beforeUpload: ({ principal }) => limitImports(deps.db.app, principal) },
  );
}
