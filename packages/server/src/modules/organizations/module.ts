import { eq } from 'drizzle-orm';
import { inTenant } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import type { ServerModule } from '../module.js';
import { buildProfile } from '../users/profile.js';
import { organizationRoutes } from './routes.js';

/**
 * Organisations: the sign-in finder's look-up and the platform admin's list. Over push it answers the
 * signed-in user's organisation, its time zone and its modules.
 */
export const organizationsModule: ServerModule = {
  name: 'organizations',
  routes: organizationRoutes,
  push: (deps) => {
    const profile = (p: Parameters<typeof buildProfile>[1]) =>
      inTenant(deps.db.app, p.organizationId, (tx) => buildProfile(tx, p, deps.config.hiraV2UserIds));
    return {
      get_timezone: (p) =>
        inTenant(deps.db.app, p.organizationId, async (tx) => {
          const [org] = await tx
            .select({ timezone: organizations.timezone })
            .from(organizations)
            .where(eq(organizations.id, p.organizationId));
          return { timezone: org?.timezone ?? 'UTC' };
        }),
      get_organization: async (p) => (await profile(p)).organization,
      get_all_modules: async (p) => (await profile(p)).organization_modules,
    };
  },
};
