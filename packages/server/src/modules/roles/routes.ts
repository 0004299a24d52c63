import { rolesApi as api } from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import type { Router } from '../../platform/http/route.js';
import { createRoleFromBody, deleteRole, getRole, listRoles, updateRole } from './service.js';

/** A unique-name race lost to a concurrent request surfaces as the database's unique violation. */
function nameRace(err: unknown): AppError | null {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: string; constraint?: string };
    if (pg.code === '23505' && pg.constraint === 'roles_name_unique') {
      return new AppError('conflict', { fields: { name: 'roles.validation.nameTaken' } });
    }
  }
  return null;
}

async function withNameRace<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw nameRace(err) ?? err;
  }
}

export function roleRoutes(r: Router) {
  const { deps } = r;

  r.route(api.list, ({ tx, query }) => listRoles(tx, query));

  r.route(api.get, ({ tx, params }) => getRole(tx, params.id));

  r.route(api.create, ({ tx, principal, body }) => withNameRace(() => createRoleFromBody(tx, principal, body)));

  r.route(api.update, async ({ tx, principal, params, body, afterCommit }) => {
    const result = await withNameRace(() => updateRole(tx, principal, params.id, body));
    // After commit: every holder's open sessions reload their rules and profile.
    afterCommit(() => {
      for (const userId of result.affectedUserIds) deps.push.toUser(userId, { channel: 'rules', change: 'updated' });
    });
    return result.role;
  });

  r.route(api.remove, async ({ tx, principal, params }) => {
    await deleteRole(tx, principal, params.id);
    return { ok: true as const };
  });
}
