import { usersApi as api } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import { loadPrincipal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import { users } from '../../platform/db/schema.js';
import type { Router } from '../../platform/http/route.js';
import { buildProfile } from './profile.js';

/** The signed-in user's own profile (spec 000 §7): read under both addresses, and the language. */
export function profileRoutes(r: Router) {
  const { deps } = r;

  r.route(api.profile, ({ tx, principal }) => buildProfile(tx, principal, deps.config.hiraV2UserIds));
  r.route(api.profileV2, ({ tx, principal }) => buildProfile(tx, principal, deps.config.hiraV2UserIds));

  r.route(api.updateProfile, async ({ tx, principal: p, body, afterCommit }) => {
    await tx.update(users).set({ locale: body.locale, updatedAt: new Date() }).where(eq(users.id, p.userId));
    await recordAudit(tx, {
      actorUserId: p.userId,
      action: 'update',
      entity: 'User',
      entityId: p.userId,
      changes: { locale: body.locale },
    });
    // The principal was loaded in this same transaction a moment ago.
    const fresh = await loadPrincipal(tx, p.userId, p.sessionId);
    afterCommit(() => deps.push.toUser(p.userId, { channel: 'user', change: 'updated', id: p.userId }));
    return buildProfile(tx, fresh!, deps.config.hiraV2UserIds);
  });
}
