import { can, safetyInteractionsApi as api, searchPagination } from '@bulwark/domain';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/errors.js';
import type { Router } from '../../platform/http/route.js';
import { pushChange } from './push.js';
import { exportList } from '../list-exports/service.js';
import { siExport, storedSiQuery } from './export.js';
import { createInteraction, deleteInteraction, getInteraction, listInteractions, peopleOptions, updateInteraction } from './service.js';
import { formOptions } from './sites.js';

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

  r.route(
    api.list,
    async ({ tx, principal, query, lang, afterCommit }) => {
      if (query.export_to_excel) {
        // Every filtered row: in the request up to the inline limit, past it by a job (issue 13).
        return exportList(
          { tx, deps, principal, lang, afterCommit },
          'safety_interactions',
          storedSiQuery(query),
          siExport(tx, query, lang),
        );
      }
      const page = await listInteractions(tx, query);
      return { safety_interactions: page.items, pagination: searchPagination(page.total, page.totalCapped, query.page, query.per_page) };
    },
    { database: 'read' },
  );

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
