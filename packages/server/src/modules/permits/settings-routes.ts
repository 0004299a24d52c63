import {
  MASTER_APIS,
  PERMIT_MASTER_IMPORT_MAX_ROWS,
  pagination,
  permitBoardsApi as boards,
  permitWorkersApi as workers,
  type MasterKind,
} from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import { readWorkbookRows } from '../../platform/export/excel.js';
import { FileAnswer, XLSX_TYPE } from '../../platform/http/answers.js';
import { limitImports } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { exportList } from '../list-exports/service.js';
import { boardLinks, boardOf, createBoardLink, linkBoard, publicStatus, revokeBoardLink } from './board.js';
import { importMaster, masterImportTemplate } from './master-import.js';
import { createMasterEntry, listMaster, updateMasterEntry } from './masters.js';
import { masterExport, storedSettingsQuery, workerExport } from './settings-export.js';
import { createWorker, listWorkers, recentWorkers, updateWorker } from './workers.js';

/** One master's five calls (admin only): list and export, create, edit or switch off, import and its template. */
function masterRoutes(r: Router, kind: MasterKind) {
  const api = MASTER_APIS[kind];
  r.route(api.list, async ({ tx, principal, query, lang, afterCommit }) => {
    if (query.export_to_excel) {
      // Every filtered entry: in the request up to 10,000, past that by a job (issue 13).
      const { deps } = r;
      return exportList(
        { tx, deps, principal, lang, afterCommit },
        `permit-masters:${kind}`,
        storedSettingsQuery(query),
        masterExport(tx, kind, query, lang),
      );
    }
    const page = await listMaster(tx, kind, query);
    return { entries: page.entries, pagination: pagination(page.total, query.page, query.per_page) };
  });
  r.route(api.create, async ({ tx, principal, body }) => ({ entry: await createMasterEntry(tx, principal, kind, body) }));
  r.route(api.update, async ({ tx, principal, params, body }) => ({
    entry: await updateMasterEntry(tx, principal, kind, params.id, body),
  }));
  r.route(
    api.importTemplate,
    async ({ lang }) => new FileAnswer(await masterImportTemplate(kind, lang), XLSX_TYPE, `${kind}-import-template.xlsx`),
  );
  r.route(
    api.import,
    async ({ tx, principal, upload, lang }) => {
      const sheet = await readWorkbookRows(upload.bytes, {
        maxRows: PERMIT_MASTER_IMPORT_MAX_ROWS,
        tooManyKey: 'permits.validation.importTooMany',
      });
      const result = await importMaster(tx, principal, kind, sheet, lang);
      if (result.errors.length > 0) {
        // Any refused row: nothing of this import may stay (the refusal rolls the transaction back).
        const fields = Object.fromEntries(result.errors.map((e) => [`${e.row}.${e.field}`, e.message]));
        throw new AppError('validation_failed', { messageKey: 'permits.masters.import.failed', fields, extra: { rows: result.errors } });
      }
      return result;
    },
    { beforeUpload: ({ principal }) => limitImports(r.deps.db.app, principal) },
  );
}

/** Worker profiles, the four masters, the live board, its links, and a permit's public status. */
export function settingsRoutes(r: Router) {
  const { deps } = r;

  r.route(workers.recent, async ({ tx, principal, query }) => ({ workers: await recentWorkers(tx, principal, query) }));
  r.route(workers.list, async ({ tx, principal, query, lang, afterCommit }) => {
    if (query.export_to_excel) {
      // Every filtered profile: in the request up to 10,000, past that by a job (issue 13).
      return exportList({ tx, deps, principal, lang, afterCommit }, 'workers', storedSettingsQuery(query), workerExport(tx, query, lang));
    }
    const page = await listWorkers(tx, query);
    return { workers: page.workers, pagination: pagination(page.total, query.page, query.per_page) };
  });
  r.route(workers.uploadPhoto, async ({ tx, principal, upload }) => {
    const f = await deps.storage.store(tx, {
      purpose: 'photo',
      fileName: upload.fileName,
      bytes: upload.file,
      uploadedBy: principal.userId,
    });
    return { file: { id: f.id, file_name: f.file_name } };
  });
  r.route(workers.create, async ({ tx, principal, body }) => ({ worker: await createWorker(tx, principal, body) }));
  r.route(workers.update, async ({ tx, principal, params, body, afterCommit }) => {
    const { worker, purge } = await updateWorker(tx, deps, principal, params.id, body);
    if (purge) afterCommit(purge);
    return { worker };
  });

  for (const kind of Object.keys(MASTER_APIS) as MasterKind[]) masterRoutes(r, kind);

  r.route(boards.board, ({ tx, query }) => boardOf(tx, query.site_id, new Date(), true));
  r.route(boards.links, async ({ tx }) => ({ links: await boardLinks(tx) }));
  r.route(boards.createLink, ({ tx, principal, body }) => createBoardLink(tx, deps, principal, body));
  r.route(boards.revokeLink, async ({ tx, principal, params }) => {
    await revokeBoardLink(tx, principal, params.id, new Date());
    return { ok: true as const };
  });
  // By token, at the organisation's own address (its tenant's wall): read-only, nothing else.
  r.guest(boards.linkBoard, ({ tx, params }) => linkBoard(tx, params.token, new Date()));
  r.guest(boards.publicStatus, ({ tx, params }) => publicStatus(tx, params.token, new Date()));
}
