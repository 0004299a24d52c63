import { usersApi as api } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import { limitLinkTokens } from '../../platform/http/rate-limit.js';
import type { Router } from '../../platform/http/route.js';
import { formOptions, userPermissions } from './options.js';
import type { UsersRouteContext } from './routes.js';
import { activateUser } from './activation.js';
import { userDetails } from './tables.js';

/** The administration of one user (spec 001 §2 Settings/users): invite, activation, edits, photo. */
export function adminRoutes(r: Router, { service, announce }: UsersRouteContext) {
  const { deps } = r;

  // Signed out: the invited person has no session yet. The same budget as password reset links,
  // counted before anything is read, as both guess at one token table.
  r.guest(
    api.activate,
    async ({ tx, tenant, body, afterCommit }) => {
      await activateUser(tx, body.token, body.password);
      afterCommit(() => announce(tenant.id));
      return { ok: true as const };
    },
    { onRequest: (req) => limitLinkTokens(deps.db.app, req.ip) },
  );

  r.route(api.formOptions, ({ tx, principal }) => formOptions(tx, principal));
  r.route(api.permissions, ({ tx, params }) => userPermissions(tx, service, params.id));
  r.route(api.get, ({ tx, params }) => service.get(tx, params.id));

  r.route(api.invite, async ({ tx, principal: p, body, lang, afterCommit }) => {
    const { id, queued } = await service.invite(tx, p, body, lang);
    afterCommit(() => service.deliver(queued));
    afterCommit(() => announce(p.organizationId));
    return service.get(tx, id);
  });

  r.route(api.update, async ({ tx, principal: p, params, body, afterCommit }) => {
    const { queued, reviews, deactivated } = await service.update(tx, p, params.id, body);
    afterCommit(() => service.deliver(queued));
    if (reviews) afterCommit(reviews);
    // Deactivation ended the user's sessions: their open sockets close too (push.ts).
    if (deactivated) afterCommit(() => deps.push.disconnectUser(params.id));
    afterCommit(() => {
      announce(p.organizationId, params.id);
      deps.push.toUser(params.id, { channel: 'rules', change: 'all' });
    });
    return service.get(tx, params.id);
  });

  r.route(api.resendActivation, async ({ tx, principal: p, params, afterCommit }) => {
    const { email, queued } = await service.resend(tx, p, params.id);
    afterCommit(() => service.deliver(queued));
    return { email };
  });

  r.route(api.uploadPhoto, async ({ tx, principal: p, params, upload, afterCommit }) => {
    const row = await service.findRow(tx, params.id);
    const stored = await deps.storage.store(tx, { purpose: 'photo', fileName: upload.fileName, bytes: upload.file, uploadedBy: p.userId });
    await tx.update(userDetails).set({ photoFileId: stored.id }).where(eq(userDetails.id, row.id));
    if (row.photoFileId) {
      const old = await deps.storage.remove(tx, row.photoFileId);
      if (old) afterCommit(old.purge);
    }
    await recordAudit(tx, { actorUserId: p.userId, action: 'photo', entity: 'User', entityId: row.id, changes: { file_id: stored.id } });
    afterCommit(() => deps.push.toUser(params.id, { channel: 'user', change: 'updated', id: params.id }));
    return service.get(tx, row.id);
  });
}
