import { inArray } from 'drizzle-orm';
import type { ServerModule } from '../module.js';
import { allSites, listUserSiteIds, setUserSites } from '../sites/service.js';
import { userSites } from '../sites/tables.js';
import { userPushHandlers, userRoutes } from './routes.js';
import type { UserSiteLinks } from './site-links.js';

/** The sites module's side of user-site assignment. */
export const siteLinks: UserSiteLinks = {
  listUserSiteIds,
  setUserSites,
  // The sites service has no "users of these sites" function yet; this is the one read of its table.
  async userIdsAtSites(tx, siteIds) {
    if (siteIds.length === 0) return [];
    const rows = await tx.selectDistinct({ userId: userSites.userId }).from(userSites).where(inArray(userSites.siteId, siteIds));
    return rows.map((r) => r.userId);
  },
  async siteIdsByName(tx) {
    const rows = await allSites(tx, { active: 'active' });
    return new Map(rows.map((s) => [s.name.trim().toLowerCase(), s.id]));
  },
};

export const usersModule: ServerModule = {
  name: 'users',
  routes: (app, deps) => userRoutes(app, deps, siteLinks),
  push: (deps) => userPushHandlers(deps, siteLinks),
};
