import { settingsApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { getActionSettings, saveActionSettings } from './action-rules.js';
import { createEhsOcp, getEhsOcp, getKpiSettings, listEhsOcps, saveKpiSettings, updateEhsOcp } from './service.js';
import { listEmailSubscriptions, saveEmailSubscriptions } from './subscriptions.js';

/** Settings: KPI targets (admin), EHS operational control procedures, each user's e-mail subscriptions. */
export function settingsRoutes(r: Router) {
  const { push } = r.deps;

  // --- KPI settings (admin) -------------------------------------------------------------------------
  r.route(api.kpi, ({ tx, query }) => getKpiSettings(tx, query.year));
  r.route(api.saveKpi, ({ tx, principal, query, body }) => saveKpiSettings(tx, principal.userId, query.year, body));

  // --- Action rules of the organisation (admin) -------------------------------------------------------
  r.route(api.actionSettings, ({ tx }) => getActionSettings(tx));
  r.route(api.saveActionSettings, ({ tx, principal, body }) => saveActionSettings(tx, principal.userId, body));

  // --- EHS OCP: read by every signed-in user (incident forms pick one), written by the admin --------
  r.route(api.ocps, ({ tx, query }) => listEhsOcps(tx, query));
  r.route(api.ocp, ({ tx, params }) => getEhsOcp(tx, params.id));

  r.route(api.createOcp, async ({ tx, principal, body, afterCommit }) => {
    const ocp = await createEhsOcp(tx, principal.userId, body);
    afterCommit(() => push.toOrganization(principal.organizationId, { channel: 'all_modules', change: 'created', id: ocp.id }));
    return ocp;
  });

  r.route(api.updateOcp, async ({ tx, principal, params, body, afterCommit }) => {
    const ocp = await updateEhsOcp(tx, principal.userId, params.id, body);
    afterCommit(() => push.toOrganization(principal.organizationId, { channel: 'all_modules', change: 'updated', id: ocp.id }));
    return ocp;
  });

  // --- E-mail subscriptions: every signed-in user, for themself -------------------------------------
  r.route(api.emailSubscriptions, async ({ tx, principal }) => ({ subscriptions: await listEmailSubscriptions(tx, principal.userId) }));

  r.route(api.saveEmailSubscriptions, async ({ tx, principal, body }) => {
    await saveEmailSubscriptions(tx, principal.userId, body);
    return { subscriptions: await listEmailSubscriptions(tx, principal.userId) };
  });
}
