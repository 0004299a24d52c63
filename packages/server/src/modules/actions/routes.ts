import { ACTION_LIST_ENDPOINTS, ACTION_LIST_KINDS, actionsApi as api, searchPagination, type ActionListKind } from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import { exportList } from '../list-exports/service.js';
import type { Router } from '../../platform/http/route.js';
import { actionExport, storedActionQuery } from './export.js';
import { actionDetail, actionRow, categoryOptions, listActions, mayReadAction } from './queries.js';
import { createActionsFor, siteTimeZone } from './service.js';
import { addAttachment, removeAttachment, updateAction } from './update.js';

export function actionRoutes(r: Router) {
  const { deps } = r;

  // The lists of spec 001 §7, one per source, each with the right of spec 000 §2 (in its contract).
  for (const kind of Object.keys(ACTION_LIST_KINDS) as ActionListKind[]) {
    r.route(
      api[ACTION_LIST_ENDPOINTS[kind]],
      async ({ tx, principal, query, lang, afterCommit }) => {
        if (query.export_to_excel) {
          // Every filtered row of the tab: in the request up to 10,000, past that by a job (issue 13).
          return exportList(
            { tx, deps, principal, lang, afterCommit },
            `actions:${kind}`,
            storedActionQuery(query),
            actionExport(tx, kind, query, lang),
          );
        }
        const page = await listActions(tx, kind, query);
        return {
          actions: page.actions,
          pagination: searchPagination(page.total, page.totalCapped, query.page, query.per_page),
          counts: page.counts,
          counts_capped: page.countsCapped,
        };
      },
      { database: 'read' },
    );
  }

  r.route(api.categories, async ({ tx }) => ({ categories: await categoryOptions(tx) }));

  r.route(api.get, async ({ tx, principal: p, params, query }) => {
    const row = await actionRow(tx, params.id);
    // Asked through another list than its own: not this list's action.
    if (query.actionable_type && query.actionable_type !== row.sourceType) throw new AppError('not_found');
    if (!mayReadAction(p, row)) throw new AppError('forbidden');
    return actionDetail(tx, p, row.id);
  });

  r.route(api.update, async ({ tx, principal: p, params, body, lang, afterCommit }) => {
    afterCommit(await updateAction(tx, deps, p, params.id, body, lang));
    return actionDetail(tx, p, params.id);
  });

  // The spec's path ends with a slash; the plain path is the same call.
  for (const contract of [api.create, api.createWithoutSlash]) {
    r.route(contract, async ({ tx, principal: p, body, afterCommit }) => {
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
      afterCommit(created.afterCommit);
      return actionDetail(tx, p, created.actions[0]!.id);
    });
  }

  r.route(
    api.addAttachment,
    async ({ tx, principal: p, params, upload, afterCommit }) => {
      const added = await addAttachment(tx, deps, p, params.id, upload);
      afterCommit(added.afterCommit);
      return actionDetail(tx, p, params.id);
    },
    {
      // The action must be the caller's to reach before the file is read (404 or 403 first).
      beforeUpload: async ({ tx, principal: p, params }) => {
        if (!mayReadAction(p, await actionRow(tx, params.id))) throw new AppError('forbidden');
      },
    },
  );

  r.route(api.removeAttachment, async ({ tx, principal: p, params, afterCommit }) => {
    const row = await actionRow(tx, params.id);
    if (!mayReadAction(p, row)) throw new AppError('forbidden');
    afterCommit(await removeAttachment(tx, deps, p, params.id, params.fileId));
    return { ok: true as const };
  });
}
