import type { PushChannel } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { adminRoutes } from './admin-routes.js';
import { createUserGroups, type UserGroups } from './groups.js';
import { importRoutes } from './import-routes.js';
import { licenceRoutes } from './licence-routes.js';
import { peopleRoutes } from './people-routes.js';
import { profileRoutes } from './profile-routes.js';
import { createUsersService, type UsersService } from './service.js';
import type { UserSiteLinks } from './site-links.js';

/** Push channels whose content a change of users can alter. */
const USER_CHANNELS: PushChannel[] = ['role_wise_users', 'module_based_users', 'used_license_count'];

/** What the route files of this module share: the service, the groups and the push of a change. */
export type UsersRouteContext = {
  service: UsersService;
  groups: UserGroups;
  links: UserSiteLinks;
  /** Tells the organisation's screens that users changed, and the user (when one is named) that they did. */
  announce: (organizationId: string, userId?: string) => void;
};

/**
 * Users (spec 000 §7, spec 001 §2, §6, §9), mounted from `usersApi`: the signed-in profile, the list
 * and the groups of people, licences, the Excel import, and the administration of one user.
 */
export function userRoutes(r: Router, links: UserSiteLinks) {
  const { deps } = r;
  const ctx: UsersRouteContext = {
    service: createUsersService({ config: deps.config, mail: deps.mail, jobs: deps.jobs, push: deps.push, sites: links }),
    groups: createUserGroups(links),
    links,
    announce: (organizationId, userId) => {
      for (const channel of USER_CHANNELS) deps.push.toOrganization(organizationId, { channel, change: 'all' });
      if (userId) deps.push.toUser(userId, { channel: 'user', change: 'updated', id: userId });
    },
  };
  profileRoutes(r);
  peopleRoutes(r, ctx);
  licenceRoutes(r, ctx);
  importRoutes(r, ctx);
  adminRoutes(r, ctx);
}
