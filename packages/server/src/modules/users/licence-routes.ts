import { usersApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { assignLicence, licenceCounts, licencesHeldBy, unassignLicence } from './licences.js';
import type { UsersRouteContext } from './routes.js';

/** Licences per user per module (spec 001 §2, §6, §9): counted and handed out by the admin only. */
export function licenceRoutes(r: Router, { announce }: UsersRouteContext) {
  r.route(api.licences, ({ tx }) => licenceCounts(tx));

  r.route(api.myLicences, async ({ tx, principal: p }) => ({ modules: await licencesHeldBy(tx, p.userId), is_admin: p.isAdmin }));

  r.route(api.assignLicence, async ({ tx, principal: p, body, afterCommit }) => {
    await assignLicence(tx, p, body.user_id, body.module);
    afterCommit(() => announce(p.organizationId, body.user_id));
    return licenceCounts(tx);
  });

  r.route(api.unassignLicence, async ({ tx, principal: p, params, afterCommit }) => {
    await unassignLicence(tx, p, params.user_id, params.module);
    afterCommit(() => announce(p.organizationId, params.user_id));
    return licenceCounts(tx);
  });
}
