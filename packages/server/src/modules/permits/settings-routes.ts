import {
  MASTER_APIS,
  PERMIT_MASTER_IMPORT_MAX_ROWS,
  pagination,
  permitBoardsApi as boards,
  permitWorkersApi as workers,
  translate,
  type Language,
  type MasterEntry,
  type MasterKind,
  type Worker,
} from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import { readWorkbookRows, workbookAnswer, type ExcelColumn } from '../../platform/export/excel.js';
import { FileAnswer, XLSX_TYPE } from '../../platform/http/answers.js';
import { limitImports } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { boardLinks, boardOf, createBoardLink, linkBoard, publicStatus, revokeBoardLink } from './board.js';
import { importMaster, masterImportTemplate } from './master-import.js';
import { createMasterEntry, listMaster, updateMasterEntry } from './masters.js';
import { createWorker, listWorkers, recentWorkers, updateWorker } from './workers.js';

function workerColumns(lang: Language): ExcelColumn<Worker>[] {
  const t = (key: string) => translate(lang, key);
  return [
    { header: t('permits.fields.name'), key: 'name', width: 24, value: (w) => w.name },
    { header: t('permits.fields.idNumber'), key: 'id_number', width: 16, value: (w) => w.id_number },
    { header: t('permits.fields.phone'), key: 'phone', width: 18, value: (w) => w.phone },
    { header: t('permits.fields.age'), key: 'age', value: (w) => w.age },
    { header: t('permits.fields.gender'), key: 'gender', value: (w) => (w.gender ? t(`permits.genders.${w.gender}`) : '') },
    { header: t('permits.fields.active'), key: 'active', value: (w) => t(w.active ? 'permits.fields.yes' : 'permits.fields.no') },
    { header: t('permits.fields.lastUsed'), key: 'last_used', width: 20, value: (w) => w.last_used_at?.slice(0, 16).replace('T', ' ') },
  ];
}

function masterColumns(lang: Language, kind: MasterKind): ExcelColumn<MasterEntry>[] {
  const t = (key: string) => translate(lang, key);
  return [
    { header: t('permits.masters.import.columns.name'), key: 'name', width: 30, value: (e) => e.name },
    { header: t('permits.masters.import.columns.description'), key: 'description', width: 48, value: (e) => e.description },
    ...(kind === 'hierarchy_of_controls'
      ? [
          {
            header: t('permits.masters.import.columns.control_level'),
            key: 'level',
            width: 18,
            value: (e: MasterEntry) => (e.control_level ? t(`actions.controlType.${e.control_level}`) : ''),
          },
        ]
      : []),
    {
      header: t('permits.masters.import.columns.active'),
      key: 'active',
      value: (e) => t(e.active ? 'permits.fields.yes' : 'permits.fields.no'),
    },
  ];
}

/** One master's five calls (admin only): list and export, create, edit or switch off, import and its template. */
function masterRoutes(r: Router, kind: MasterKind) {
  const api = MASTER_APIS[kind];
  r.route(api.list, async ({ tx, query, lang }) => {
    if (query.export_to_excel) {
      const title = translate(lang, `permits.masterKinds.${kind}`);
      return workbookAnswer(title, title, masterColumns(lang, kind), (await listMaster(tx, kind, query, true)).entries);
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
  r.route(workers.list, async ({ tx, query, lang }) => {
    if (query.export_to_excel) {
      const title = translate(lang, 'permits.fields.workers');
      return workbookAnswer(title, title, workerColumns(lang), (await listWorkers(tx, query, true)).workers);
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
