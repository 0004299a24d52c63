import {
  ACTION_LIST_ENDPOINTS,
  ACTION_LIST_KINDS,
  actionsApi as api,
  pagination,
  translate,
  type ActionListItem,
  type ActionListKind,
  type Language,
} from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import { workbookAnswer, type ExcelColumn } from '../../platform/export/excel.js';
import type { Router } from '../../platform/http/route.js';
import { actionDetail, actionRow, allActions, categoryOptions, listActions, mayReadAction } from './queries.js';
import { createActionsFor, siteTimeZone } from './service.js';
import { addAttachment, removeAttachment, updateAction } from './update.js';

function excelColumns(lang: Language): ExcelColumn<ActionListItem>[] {
  const t = (key: string) => translate(lang, `actions.${key}`);
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

export function actionRoutes(r: Router) {
  const { deps } = r;

  // The lists of spec 001 §7, one per source, each with the right of spec 000 §2 (in its contract).
  for (const kind of Object.keys(ACTION_LIST_KINDS) as ActionListKind[]) {
    r.route(api[ACTION_LIST_ENDPOINTS[kind]], async ({ tx, query, lang }) => {
      if (query.export_to_excel) {
        return workbookAnswer(
          translate(lang, 'actions.list.exportName'),
          translate(lang, 'actions.excel.sheet'),
          excelColumns(lang),
          await allActions(tx, kind, query),
        );
      }
      const page = await listActions(tx, kind, query);
      return { actions: page.actions, pagination: pagination(page.total, query.page, query.per_page), counts: page.counts };
    });
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
