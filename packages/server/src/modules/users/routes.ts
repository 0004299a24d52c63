import { errorResponse, profileResponse, updateMyProfileBody } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { loadPrincipal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import { inTenant } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { principalOf } from '../../platform/http/access.js';
import { buildProfile } from './profile.js';

const tags = ['Users'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse };

export function userRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  for (const url of ['/api/users/user_profile', '/api/v2/users/user_profile']) {
    r.get(url, {
      config: { access: { session: true } },
      schema: { tags, summary: 'The signed-in user, organisation, rules and modules', response: { 200: profileResponse, ...errors } },
    }, async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => buildProfile(tx, p, deps.config.hiraV2UserIds));
    });
  }

  r.patch('/api/users/user_profile', {
    config: { access: { session: true } },
    schema: { tags, summary: 'Change the signed-in user’s own language', body: updateMyProfileBody, response: { 200: profileResponse, ...errors } },
  }, async (req) => {
    const p = principalOf(req);
    const profile = await inTenant(deps.db.app, p.organizationId, async (tx) => {
      await tx.update(users).set({ locale: req.body.locale, updatedAt: new Date() }).where(eq(users.id, p.userId));
      await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'User', entityId: p.userId, changes: { locale: req.body.locale } });
      const fresh = await loadPrincipal(tx, p.userId, p.sessionId);
      return buildProfile(tx, fresh!, deps.config.hiraV2UserIds);
    });
    deps.push.toUser(p.userId, { channel: 'user', change: 'updated', id: p.userId });
    return profile;
  });
}
