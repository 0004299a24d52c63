import type { AppDeps } from '../../platform/deps.js';
import { inTenant } from '../../platform/db/db.js';
import { createUserGroups } from './groups.js';
import { licenceCounts } from './licences.js';
import type { UserSiteLinks } from './site-links.js';

/** Push requests of spec 000 §7 answered by this module (each in a transaction of its own). */
export function userPushHandlers(deps: AppDeps, links: UserSiteLinks) {
  const groups = createUserGroups(links);
  return {
    get_role_wise_users: (p: { organizationId: string }) => inTenant(deps.db.app, p.organizationId, (tx) => groups.roleWise(tx)),
    get_module_based_users: (p: { organizationId: string }) => inTenant(deps.db.app, p.organizationId, (tx) => groups.moduleBased(tx)),
    get_used_lincence_count: (p: { organizationId: string }) => inTenant(deps.db.app, p.organizationId, (tx) => licenceCounts(tx)),
  };
}
