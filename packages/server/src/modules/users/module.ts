import { inArray, sql } from 'drizzle-orm';
import { users } from '../../platform/db/schema.js';
import { registerFileLinks } from '../../platform/storage/links.js';
import type { ServerModule } from '../module.js';
import { allSites, listUserSiteIds, setUserSites, userIdsAtSites } from '../sites/service.js';
import { userPushHandlers } from './push.js';
import { userRoutes } from './routes.js';
import type { UserSiteLinks } from './site-links.js';
import { userDetails } from './tables.js';

// A profile photo is linked by its person: the storage screen names them, and the sweep leaves it.
registerFileLinks('users', {
  column: userDetails.photoFileId,
  describe: async (tx, fileIds) => {
    // userDetails and users are two views of the one `users` table: its name comes from the same row.
    const rows = await tx
      .select({ fileId: userDetails.photoFileId, id: userDetails.id, name: sql<string>`${users.fullName}` })
      .from(userDetails)
      .where(inArray(userDetails.photoFileId, [...fileIds]));
    return rows.flatMap((r) =>
      r.fileId ? [{ fileId: r.fileId, kind: 'user_photo' as const, label: r.name, path: `/users/${r.id}/profile` }] : [],
    );
  },
});

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
