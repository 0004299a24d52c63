import { can, safetyInteractionsApi as api, searchPagination, siSerial, translate, type Language, type SiListItem } from '@bulwark/domain';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/errors.js';
import { workbookAnswer, type ExcelColumn } from '../../platform/export/excel.js';
import type { Router } from '../../platform/http/route.js';
import { pushChange } from './push.js';
import {
  allInteractions,
  createInteraction,
  deleteInteraction,
  getInteraction,
  listInteractions,
  peopleOptions,
  updateInteraction,
} from './service.js';
import { formOptions } from './sites.js';

function excelColumns(lang: Language): ExcelColumn<SiListItem>[] {
  const t = (key: string) => translate(lang, `safetyInteractions.${key}`);
  return [
    { header: t('fields.serial'), key: 'serial', value: (r) => siSerial(r.serial) },
    { header: t('fields.heldAt'), key: 'held_at', width: 18, value: (r) => r.held_at.replace('T', ' ') },
    { header: t('fields.site'), key: 'site', width: 24, value: (r) => r.site.name },
    { header: t('fields.area'), key: 'area', width: 28, value: (r) => r.area?.full_name },
    { header: t('fields.observer'), key: 'observer', width: 22, value: (r) => r.observer?.full_name },
    { header: t('fields.people'), key: 'people', width: 32, value: (r) => r.people.join(', ') },
    { header: t('fields.crew'), key: 'crew', width: 24, value: (r) => r.crew },
    { header: t('fields.duration'), key: 'duration', value: (r) => r.duration_minutes },
    { header: t('fields.topics'), key: 'topics', width: 40, value: (r) => r.topics.map((x) => t(`topics.${x}`)).join(', ') },
    { header: t('fields.safeBehaviours'), key: 'safe', value: (r) => r.safe_count },
    { header: t('fields.atRiskBehaviours'), key: 'at_risk', value: (r) => r.at_risk_count },
    { header: t('fields.recognition'), key: 'recognition', value: (r) => t(r.recognition_given ? 'list.yes' : 'list.no') },
    { header: t('fields.status'), key: 'status', value: (r) => t(`statuses.${r.status}`) },
  ];
}

/**
 * Changing an interaction is for its observer holding Observation create, or anyone holding
 * Observation update (the service decides on the record). Before any field error: an expired trial
 * is said as such (the rule of every module write), and a caller holding neither right is forbidden.
 */
function writesInteractions(p: Principal): void {
  if (p.trialExpired) throw new AppError('free_trial_expired');
  if (!can(p.access, 'Observation', 'create') && !can(p.access, 'Observation', 'update')) throw new AppError('forbidden');
}

/** The interactions themselves: the list and its export, the form's options, one record, and its writes. */
export function recordRoutes(r: Router) {
  const { deps } = r;

  r.route(api.list, async ({ tx, query, lang }) => {
    if (query.export_to_excel) {
      return workbookAnswer(
        translate(lang, 'safetyInteractions.list.exportName'),
        translate(lang, 'safetyInteractions.excel.sheet'),
        excelColumns(lang),
        await allInteractions(tx, query),
      );
    }
    const page = await listInteractions(tx, query);
    return { safety_interactions: page.items, pagination: searchPagination(page.total, page.totalCapped, query.page, query.per_page) };
  });

  r.route(api.options, async ({ tx }) => ({ sites: await formOptions(tx) }));

  r.route(api.people, async ({ tx, query }) => ({ users: await peopleOptions(tx, query.search) }));

  r.route(api.get, ({ tx, principal, params }) => getInteraction(tx, principal, params.id));

  r.route(api.create, async ({ tx, principal: p, body, afterCommit }) => {
    const written = await createInteraction(tx, deps, p, body);
    afterCommit(() => pushChange(deps, p.organizationId, 'created', written.interaction.id));
    afterCommit(written.afterCommit);
    return written.interaction;
  });

  r.route(
    api.update,
    async ({ tx, principal: p, params, body, afterCommit }) => {
      const written = await updateInteraction(tx, deps, p, params.id, body);
      afterCommit(() => pushChange(deps, p.organizationId, 'updated', written.interaction.id));
      afterCommit(written.afterCommit);
      return written.interaction;
    },
    { authorize: writesInteractions },
  );

  r.route(api.remove, async ({ tx, principal: p, params, afterCommit }) => {
    await deleteInteraction(tx, p, params.id);
    afterCommit(() => pushChange(deps, p.organizationId, 'removed', params.id));
    return { ok: true as const };
  });
}
