import { USER_IMPORT_COLUMNS, USER_IMPORT_MAX_ROWS, usersApi as api } from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import { buildWorkbook, readWorkbookRows } from '../../platform/export/excel.js';
import { FileAnswer, XLSX_TYPE } from '../../platform/http/answers.js';
import { limitImports } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { IMPORT_EXAMPLE, importUsers } from './import.js';
import type { UsersRouteContext } from './routes.js';

/** Bulk invitations from an Excel sheet: all its rows, or none when any is wrong. */
export function importRoutes(r: Router, { service, links, announce }: UsersRouteContext) {
  r.route(api.importTemplate, async () => {
    const body = await buildWorkbook(
      'users',
      USER_IMPORT_COLUMNS.map((c) => ({ header: c, key: c, width: 24, value: (row: Record<string, string>) => row[c] })),
      [IMPORT_EXAMPLE],
    );
    return new FileAnswer(body, XLSX_TYPE, 'users-import-template.xlsx');
  });

  r.route(
    api.import,
    async ({ tx, principal: p, upload, lang, afterCommit }) => {
      const sheet = await readWorkbookRows(upload.bytes, { maxRows: USER_IMPORT_MAX_ROWS, tooManyKey: 'users.validation.tooManyRows' });
      const result = await importUsers(tx, p, service, links, sheet, lang);
      if (result.errors.length > 0) {
        // `fields` carries the same report keyed "<row>.<column>", for clients that read only the standard shape.
        const fields = Object.fromEntries(result.errors.map((e) => [`${e.row}.${e.field}`, e.message]));
        throw new AppError('validation_failed', { messageKey: 'users.importDialog.failed', fields, extra: { rows: result.errors } });
      }
      afterCommit(() => service.deliver(result.queued));
      afterCommit(() => announce(p.organizationId));
      return { imported: result.imported, errors: [] };
    },
    { beforeUpload: ({ principal }) => limitImports(r.deps.db.app, principal) },
  );
}
