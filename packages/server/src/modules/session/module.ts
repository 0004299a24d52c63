import { inTenant } from '../../platform/db/db.js';
import type { ServerModule } from '../module.js';
import { buildProfile } from '../users/profile.js';
import { sessionRoutes } from './routes.js';

/**
 * Authentication and session (spec 000 §7): sign-in, refresh, sign-out, password reset and change.
 * Over push it answers the signed-in user's own profile and rules.
 */
export const sessionModule: ServerModule = {
  name: 'session',
  routes: (r, deps) => sessionRoutes(r, deps),
  push: (deps) => {
    const profile = (p: Parameters<typeof buildProfile>[1]) =>
      inTenant(deps.db.app, p.organizationId, (tx) => buildProfile(tx, p, deps.config.hiraV2UserIds));
    return {
      get_user: async (p) => (await profile(p)).user,
      get_rules: async (p) => p.rules,
      get_tenant_memory_details: async (p) => (await profile(p)).user.tenant_memory_details,
    };
  },
};
