import { safetyInteractionsApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { pushChange } from './push.js';
import { createSchedule, deleteSchedule, listSchedules, updateSchedule } from './schedules.js';

/** The plans: who is to hold an interaction, where and when. */
export function scheduleRoutes(r: Router) {
  const { deps } = r;

  r.route(api.schedules, async ({ tx, query }) => ({ schedules: await listSchedules(tx, query) }));

  r.route(api.createSchedule, async ({ tx, principal: p, body, afterCommit }) => {
    const plan = await createSchedule(tx, p, body);
    afterCommit(() => pushChange(deps, p.organizationId, 'created', plan.id));
    return plan;
  });

  r.route(api.updateSchedule, async ({ tx, principal: p, params, body, afterCommit }) => {
    const plan = await updateSchedule(tx, p, params.id, body);
    afterCommit(() => pushChange(deps, p.organizationId, 'updated', plan.id));
    return plan;
  });

  r.route(api.removeSchedule, async ({ tx, principal: p, params, afterCommit }) => {
    await deleteSchedule(tx, p, params.id);
    afterCommit(() => pushChange(deps, p.organizationId, 'removed', params.id));
    return { ok: true as const };
  });
}
