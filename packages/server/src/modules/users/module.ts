import type { ServerModule } from '../module.js';
import { allSites, listUserSiteIds, setUserSites, userIdsAtSites } from '../sites/service.js';
import { userPushHandlers } from './push.js';
import { userRoutes } from './routes.js';
import type { UserSiteLinks } from './site-links.js';

/** The sites module's side of user-site assignment. */
export const siteLinks: UserSiteLinks = {
  listUserSiteIds,
  setUserSites,
  userIdsAtSites,
  // Imports may only name active sites.
  async siteIdsByName(tx) {
    const rows = await allSites(tx, { active: 'active' });
    return new Map(rows.map((s) => [s.name.trim().toLowerCase(), s.id]));
  },
};

export const usersModule: ServerModule = {
  name: 'users',
  routes: (r) => userRoutes(r, siteLinks),
  push: (deps) => userPushHandlers(deps, siteLinks),
};
