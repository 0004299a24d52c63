import type { Principal } from '../../platform/auth/principal.js';
import type { AppDeps } from '../../platform/deps.js';
import { inTenant } from '../../platform/db/db.js';
import { createUserGroups } from './groups.js';
import { licenceCounts } from './licences.js';
import { MODULE_PICKERS, needsOneOf, USER_READ } from './pickers.js';
import type { UserSiteLinks } from './site-links.js';

/**
 * Push requests of spec 000 §7 answered by this module (each in a transaction of its own). The lists of
 * people need the rights their HTTP routes need.
 */
export function userPushHandlers(deps: AppDeps, links: UserSiteLinks) {
  const groups = createUserGroups(links);
  return {
    get_role_wise_users: async (p: Principal) => {
      needsOneOf(USER_READ)(p);
      return inTenant(deps.db.app, p.organizationId, (tx) => groups.roleWise(tx));
    },
    get_module_based_users: async (p: Principal) => {
      MODULE_PICKERS(p);
      return inTenant(deps.db.app, p.organizationId, (tx) => groups.moduleBased(tx));
    },
    get_used_lincence_count: (p: { organizationId: string }) => inTenant(deps.db.app, p.organizationId, (tx) => licenceCounts(tx)),
  };
}
