import { apiTokensApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { createServiceAccount, createToken, listServiceAccounts, revokeToken, updateServiceAccount } from './service.js';

/** Service accounts and API tokens: the organisation's administrators (the contracts say `admin`). */
export function apiTokensRoutes(r: Router) {
  r.route(api.list, async ({ tx }) => ({ service_accounts: await listServiceAccounts(tx) }));
  r.route(api.create, async ({ tx, principal, body }) => ({ service_account: await createServiceAccount(tx, principal, body) }));
  r.route(api.update, async ({ tx, principal, params, body }) => ({
    service_account: await updateServiceAccount(tx, principal, params.id, body),
  }));
  r.route(api.createToken, ({ tx, principal, params, body }) => createToken(tx, principal, params.id, body));
  r.route(api.revokeToken, async ({ tx, principal, params }) => {
    await revokeToken(tx, principal, params.id);
    return { ok: true as const };
  });
}
