import type { CapaKind, IncidentCapa } from '@bulwark/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { createActionsFor } from '../actions/service.js';
import { ENTITY, type AfterCommit } from './create.js';
import type { IncidentsDeps } from './notify.js';
import { incidentContext, requireAbility } from './record.js';
import { incidentCapa, incidents } from './tables.js';

/** The CAPA kind of each of these actions (corrective or preventive), by action id. */
export async function capaKindsOf(tx: Tx, actionIds: readonly string[]): Promise<Map<string, CapaKind>> {
  if (actionIds.length === 0) return new Map();
  const rows = await tx
    .select({ actionId: incidentCapa.actionId, kind: incidentCapa.kind })
    .from(incidentCapa)
    .where(inArray(incidentCapa.actionId, [...actionIds]));
  return new Map(rows.map((r) => [r.actionId, r.kind]));
}

/**
 * POST /api/incidents/{id}/actions (step 6): raises corrective and preventive actions through the
 * actions module (source `incident`, the incident's site), all or none; their responsible people are
 * told. The team, Incident update holders, and the reviewers whose turn it is. Field errors read
 * `actions.N.field`.
 */
export async function addCapa(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  body: IncidentCapa,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  requireAbility(ctx, 'add_actions');
  const o = ctx.row;
  const items = body.actions.map(({ kind: _kind, ...item }) => item);
  const created = await createActionsFor(tx, deps, actor, { type: 'incident', id: o.id, siteId: o.siteId }, items, {}, 'actions.');
  await tx.insert(incidentCapa).values(created.actions.map((a, i) => ({ actionId: a.id, incidentId: o.id, kind: body.actions[i]!.kind })));
  await tx.update(incidents).set({ updatedAt: now }).where(eq(incidents.id, o.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_actions_added',
    entity: ENTITY,
    entityId: o.id,
    changes: {
      diff: { actions: { from: ctx.actionCount, to: ctx.actionCount + created.actions.length } },
      serials: created.actions.map((a) => a.serial),
    },
  });
  return async () => {
    deps.push.toOrganization(o.organizationId, { channel: 'incidents', change: 'updated', id: o.id });
    await created.afterCommit();
  };
}
