import { rootCauseSettingsApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import {
  createRootCause,
  deleteRootCause,
  listRootCauses,
  phenomenaRootCauses,
  rootCauseParentListing,
  updateRootCause,
} from './root-causes.js';
import { withNameRace } from './routes.js';

export function rootCauseRoutes(r: Router) {
  r.route(api.list, ({ tx, query }) => listRootCauses(tx, query));
  r.route(api.phenomenaRootCauses, ({ tx, query }) => phenomenaRootCauses(tx, query));
  r.route(api.parentListing, ({ tx, params }) => rootCauseParentListing(tx, params.id));

  r.route(api.create, ({ tx, principal, body }) => withNameRace(() => createRootCause(tx, principal, body)));
  r.route(api.createChild, ({ tx, principal, params, body }) => withNameRace(() => createRootCause(tx, principal, body, params.id)));
  r.route(api.update, ({ tx, principal, params, body }) => withNameRace(() => updateRootCause(tx, principal, params.id, body)));

  r.route(api.remove, async ({ tx, principal, params }) => {
    await deleteRootCause(tx, principal, params.id);
    return { ok: true as const };
  });
}
