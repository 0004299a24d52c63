import { pagination, permitsApi as api } from '@bulwark/domain';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { exportList } from '../list-exports/service.js';
import { FileAnswer } from '../../platform/http/answers.js';
import type { Upload } from '../../platform/http/upload.js';
import type { Router } from '../../platform/http/route.js';
import { deletePermit, clonePermit, shareDraft, unshareDraft } from './drafts.js';
import { announce, closePermit, decidePermit, requestExtension, revokePermit, submitPermit } from './lifecycle.js';
import { permitExport, storedPermitQuery } from './export.js';
import { listPermits, permitCounts } from './list.js';
import { dispatchTemplatedMail } from '../mailers/send.js';
import { qrSvg, renderPermitPdf } from './pdf.js';
import { loadPermit, numberOf } from './record.js';
import { createDraft, updateDraft } from './requests.js';
import { permitView } from './view.js';
import { AppError } from '../../platform/errors.js';

/** Permit requests: the list, the request flow, drafts and their sharing, the lifecycle, the PDF. */
export function requestRoutes(r: Router) {
  const { deps } = r;
  const view = (tx: Tx, p: Principal, id: string) => permitView(tx, deps, p, id);

  r.route(api.list, async ({ tx, principal, query, lang, afterCommit }) => {
    if (query.export_to_excel) {
      // Every filtered row the viewer may see: in the request up to 10,000, past that by a job (issue 13).
      return exportList(
        { tx, deps, principal, lang, afterCommit },
        'permits',
        storedPermitQuery(query),
        permitExport(tx, principal, query, lang),
      );
    }
    const page = await listPermits(tx, principal, query);
    return { permits: page.permits, pagination: pagination(page.total, query.page, query.per_page) };
  });
  r.route(api.counts, async ({ tx, principal, query }) => ({ counts: await permitCounts(tx, principal, query) }));

  // Files are uploaded first, then named in attachment_ids or an attachment question's answer.
  const store = (tx: Tx, p: Principal, upload: Pick<Upload, 'fileName' | 'file'>) =>
    deps.storage.store(tx, { purpose: 'attachment', fileName: upload.fileName, bytes: upload.file, uploadedBy: p.userId });
  r.route(api.uploadAttachment, async ({ tx, principal, upload }) => {
    const f = await store(tx, principal, upload);
    return { file: { id: f.id, file_name: f.file_name } };
  });
  r.route(
    api.uploadClosureAttachment,
    async ({ tx, principal, upload }) => {
      const f = await store(tx, principal, upload);
      return { file: { id: f.id, file_name: f.file_name } };
    },
    { beforeUpload: async ({ tx, principal, params }) => void (await loadPermit(tx, principal, params.id)) },
  );

  r.route(api.create, async ({ tx, principal, body, afterCommit }) => {
    const { submit, ...draft } = body;
    const row = await createDraft(tx, principal, draft, { complete: submit });
    afterCommit(async () => deps.push.toOrganization(row.organizationId, { channel: 'permits', change: 'created', id: row.id }));
    if (submit) afterCommit(await submitPermit(tx, deps, principal, row.id));
    return { id: row.id, number: numberOf(row), permit: await view(tx, principal, row.id) };
  });
  r.route(api.get, async ({ tx, principal, params }) => ({ permit: await view(tx, principal, params.id) }));
  r.route(api.update, async ({ tx, principal, params, body, afterCommit }) => {
    await updateDraft(tx, principal, params.id, body);
    const permit = await view(tx, principal, params.id);
    afterCommit(announce(deps, { organizationId: principal.organizationId, id: params.id }, []));
    return { permit };
  });
  r.route(api.remove, async ({ tx, principal, params, afterCommit }) => {
    const { row, purges } = await deletePermit(tx, deps, principal, params.id);
    afterCommit(async () => {
      deps.push.toOrganization(row.organizationId, { channel: 'permits', change: 'removed', id: row.id });
      await Promise.allSettled(purges.map((p) => p()));
    });
    return { ok: true as const };
  });

  r.route(api.shareDraft, async ({ tx, principal, params, body, afterCommit }) => {
    const mail = await shareDraft(tx, deps, principal, params.permit_id, body.user_id);
    afterCommit(async () => dispatchTemplatedMail(deps, mail));
    return { permit: await view(tx, principal, params.permit_id) };
  });
  r.route(api.unshareDraft, async ({ tx, principal, params, afterCommit }) => {
    await unshareDraft(tx, principal, params.id, params.user_id);
    afterCommit(announce(deps, { organizationId: principal.organizationId, id: params.id }, []));
    return { ok: true as const };
  });

  // The lifecycle (PERMIT_TRANSITIONS): each answers the permit as the caller now sees it.
  const then = async (
    tx: Tx,
    p: Principal,
    id: string,
    work: Promise<() => Promise<void>>,
    afterCommit: (w: () => Promise<void>) => void,
  ) => {
    afterCommit(await work);
    return { permit: await view(tx, p, id) };
  };
  r.route(api.submit, ({ tx, principal, params, afterCommit }) =>
    then(tx, principal, params.id, submitPermit(tx, deps, principal, params.id), afterCommit),
  );
  r.route(api.approve, ({ tx, principal, params, body, afterCommit }) =>
    then(tx, principal, params.id, decidePermit(tx, deps, principal, params.id, { approve: true, comment: body.comment }), afterCommit),
  );
  r.route(api.reject, ({ tx, principal, params, body, afterCommit }) =>
    then(tx, principal, params.id, decidePermit(tx, deps, principal, params.id, { approve: false, comment: body.comment }), afterCommit),
  );
  r.route(api.requestExtension, ({ tx, principal, params, body, afterCommit }) =>
    then(tx, principal, params.id, requestExtension(tx, deps, principal, params.id, body.declaration), afterCommit),
  );
  r.route(api.revoke, ({ tx, principal, params, body, afterCommit }) =>
    then(tx, principal, params.id, revokePermit(tx, deps, principal, params.id, body.comment), afterCommit),
  );
  r.route(api.close, ({ tx, principal, params, body, afterCommit }) =>
    then(tx, principal, params.id, closePermit(tx, deps, principal, params.id, body), afterCommit),
  );
  r.route(api.clone, async ({ tx, principal, params, afterCommit }) => {
    const row = await clonePermit(tx, principal, params.id);
    afterCommit(async () => deps.push.toOrganization(row.organizationId, { channel: 'permits', change: 'created', id: row.id }));
    return { id: row.id, number: numberOf(row), permit: await view(tx, principal, row.id) };
  });

  r.route(api.report, async ({ tx, principal, params, lang }) => {
    const pdf = await renderPermitPdf(await view(tx, principal, params.id), lang);
    return new FileAnswer(pdf.bytes, 'application/pdf', pdf.fileName, { disposition: 'inline' });
  });
  r.route(api.printable, async ({ tx, principal, params }) => {
    const permit = await view(tx, principal, params.id);
    if (!permit.status_url) throw new AppError('conflict', { messageKey: 'permits.errors.notWhile.draft' });
    return { permit, status_url: permit.status_url, qr_svg: await qrSvg(permit.status_url) };
  });
}
