import type { IncidentKeyFactors, IncidentRootCauses, IncidentWhyAnalysis, KeyFactor } from '@bulwark/domain';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { phenomenaRootCauses } from '../categories/read.js';
import { refuse, type FieldErrors } from './checks.js';
import { ENTITY, type AfterCommit } from './create.js';
import type { IncidentsDeps } from './notify.js';
import { incidentContext, requireAbility } from './record.js';
import { incidentFactorRootCauses, incidentFactors, incidents } from './tables.js';

/** Each key factor of an incident, in order, with its whys and the root causes it ends in. */
export async function factorsOf(tx: Tx, incidentId: string): Promise<KeyFactor[]> {
  const factors = await tx
    .select()
    .from(incidentFactors)
    .where(eq(incidentFactors.incidentId, incidentId))
    .orderBy(asc(incidentFactors.position));
  const causes = factors.length
    ? await tx
        .select()
        .from(incidentFactorRootCauses)
        .where(
          inArray(
            incidentFactorRootCauses.factorId,
            factors.map((f) => f.id),
          ),
        )
        .orderBy(asc(incidentFactorRootCauses.position))
    : [];
  return factors.map((f) => ({
    id: f.id,
    category: f.category,
    description: f.description,
    whys: f.whys,
    root_causes: causes
      .filter((c) => c.factorId === f.id)
      .map((c) => ({ id: c.rootCauseId, name: c.name, type_name: c.typeName, path: c.path })),
  }));
}

/** GET /api/incidents/{id}/root_causes: what step 5 may pick, and each factor's picks. */
export async function rootCauseOptions(tx: Tx, principal: Principal, id: string): Promise<IncidentRootCauses> {
  const ctx = await incidentContext(tx, principal, id);
  const options = (await phenomenaRootCauses(tx, {})).phenomena_root_causes;
  const factors = await factorsOf(tx, ctx.row.id);
  return { options, selected: factors.map((f) => ({ factor_id: f.id, root_causes: f.root_causes })) };
}

function touched(tx: Tx, id: string, now: Date) {
  return tx.update(incidents).set({ updatedAt: now }).where(eq(incidents.id, id));
}

/**
 * PUT /api/incidents/{id}/key_factors (step 4): the factors as a whole. A factor named by its id must
 * be one of this incident's and keeps its why-why analysis; a factor left out goes with its analysis.
 */
export async function setKeyFactors(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  body: IncidentKeyFactors,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  requireAbility(ctx, 'edit_investigation');
  const o = ctx.row;
  const existing = await tx.select({ id: incidentFactors.id }).from(incidentFactors).where(eq(incidentFactors.incidentId, o.id));
  const known = new Set(existing.map((f) => f.id));
  const fields: FieldErrors = {};
  body.factors.forEach((f, i) => {
    if (f.id && !known.has(f.id)) fields[`factors.${i}.id`] = 'incidents.validation.factorUnknown';
  });
  refuse(fields);
  const kept = new Set(body.factors.map((f) => f.id).filter((x): x is string => !!x));
  const gone = existing.filter((f) => !kept.has(f.id)).map((f) => f.id);
  if (gone.length > 0) await tx.delete(incidentFactors).where(inArray(incidentFactors.id, gone));
  for (const [position, f] of body.factors.entries()) {
    if (f.id) {
      await tx
        .update(incidentFactors)
        .set({ position, category: f.category, description: f.description })
        .where(eq(incidentFactors.id, f.id));
    } else {
      await tx.insert(incidentFactors).values({ incidentId: o.id, position, category: f.category, description: f.description });
    }
  }
  await touched(tx, o.id, now);
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_factors_updated',
    entity: ENTITY,
    entityId: o.id,
    changes: { diff: { factors: { from: existing.length, to: body.factors.length } } },
  });
  return async () => deps.push.toOrganization(o.organizationId, { channel: 'incidents', change: 'updated', id: o.id });
}

/**
 * PUT /api/incidents/{id}/why_analysis (step 5): for each factor listed, its chain of whys and its
 * root causes. A root cause is an active leaf of the organisation's tree now, or one the factor had
 * already picked (a setting retired since stays on the record as it was named).
 */
export async function setWhyAnalysis(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  body: IncidentWhyAnalysis,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  requireAbility(ctx, 'edit_investigation');
  const o = ctx.row;
  const factors = await factorsOf(tx, o.id);
  const byId = new Map(factors.map((f) => [f.id, f]));
  const options = new Map((await phenomenaRootCauses(tx, {})).phenomena_root_causes.map((c) => [c.id, c]));
  const fields: FieldErrors = {};
  body.analyses.forEach((a, i) => {
    const factor = byId.get(a.factor_id);
    if (!factor) {
      fields[`analyses.${i}.factor_id`] = 'incidents.validation.factorUnknown';
      return;
    }
    const picked = new Map(factor.root_causes.map((c) => [c.id, c]));
    if (a.root_cause_ids.some((rc) => !options.has(rc) && !picked.has(rc)))
      fields[`analyses.${i}.root_cause_ids`] = 'incidents.validation.rootCauseUnknown';
  });
  refuse(fields);
  for (const a of body.analyses) {
    const picked = new Map(byId.get(a.factor_id)!.root_causes.map((c) => [c.id, c]));
    await tx.update(incidentFactors).set({ whys: a.whys }).where(eq(incidentFactors.id, a.factor_id));
    await tx.delete(incidentFactorRootCauses).where(eq(incidentFactorRootCauses.factorId, a.factor_id));
    await tx.insert(incidentFactorRootCauses).values(
      a.root_cause_ids.map((rc, position) => {
        const c = options.get(rc) ?? picked.get(rc)!;
        return { factorId: a.factor_id, rootCauseId: rc, position, name: c.name, typeName: c.type_name, path: c.path };
      }),
    );
  }
  await touched(tx, o.id, now);
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_why_analysis_updated',
    entity: ENTITY,
    entityId: o.id,
    changes: {
      diff: Object.fromEntries(
        body.analyses.map((a) => [
          `factor_${factors.indexOf(byId.get(a.factor_id)!) + 1}`,
          {
            from: byId.get(a.factor_id)!.root_causes.map((c) => c.name),
            to: a.root_cause_ids.map((rc) => (options.get(rc) ?? { name: rc }).name),
          },
        ]),
      ),
    },
  });
  return async () => deps.push.toOrganization(o.organizationId, { channel: 'incidents', change: 'updated', id: o.id });
}
