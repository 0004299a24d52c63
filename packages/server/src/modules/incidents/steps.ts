import { actionDateIn, incidentStatusFor, type IncidentFacts, type IncidentTeam } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { dispatchTemplatedMail } from '../mailers/send.js';
import { activeMembers, checkNotFuture, refuse, siteOf, toLocalText, toPgTimestamp, type FieldErrors } from './checks.js';
import { ENTITY, type AfterCommit } from './create.js';
import { tellTeam, type IncidentsDeps } from './notify.js';
import { incidentContext, requireAbility } from './record.js';
import { incidents, incidentTeamMembers, incidentTimeline, incidentWitnesses } from './tables.js';
import { replaceFiles } from './update.js';

function announce(deps: IncidentsDeps, organizationId: string, id: string) {
  deps.push.toOrganization(organizationId, { channel: 'incidents', change: 'updated', id });
}

/**
 * PUT /api/incidents/{id}/team (step 2): Incident update holders, or the lead re-forming their team.
 * The lead and members are active members; a target date set or moved is today or later at the site
 * and not before the incident. Forming the team starts the investigation (in progress); moving the
 * target date of an overdue investigation to today or later opens it again. New members are told.
 */
export async function formTeam(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  body: IncidentTeam,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  requireAbility(ctx, 'edit_team');
  const o = ctx.row;
  const site = await siteOf(tx, o.siteId);
  const today = actionDateIn(site.timeZone, now);
  const fields: FieldErrors = {};
  const people = await activeMembers(tx, [body.lead_id, ...body.member_ids]);
  if (!people.has(body.lead_id)) fields['lead_id'] = 'incidents.validation.memberUnknown';
  if (body.member_ids.some((m) => !people.has(m))) fields['member_ids'] = 'incidents.validation.memberUnknown';
  if (body.target_date !== o.targetDate) {
    if (body.target_date < today) fields['target_date'] = 'incidents.validation.targetDatePast';
    else if (body.target_date < o.occurredLocal.slice(0, 10)) fields['target_date'] = 'incidents.validation.targetBeforeIncident';
  }
  refuse(fields);

  const before = new Set([...(o.leadId ? [o.leadId] : []), ...ctx.memberIds]);
  const status = incidentStatusFor(o.status, body.target_date, today);
  await tx
    .update(incidents)
    .set({
      leadId: body.lead_id,
      targetDate: body.target_date,
      status,
      investigationState: o.investigationState === 'awaiting_team' ? 'in_progress' : o.investigationState,
      updatedAt: now,
    })
    .where(eq(incidents.id, o.id));
  await tx.delete(incidentTeamMembers).where(eq(incidentTeamMembers.incidentId, o.id));
  await tx.insert(incidentTeamMembers).values(body.member_ids.map((userId) => ({ incidentId: o.id, userId })));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_team_formed',
    entity: ENTITY,
    entityId: o.id,
    changes: {
      diff: {
        lead_id: { from: o.leadId, to: body.lead_id },
        member_ids: { from: ctx.memberIds, to: body.member_ids },
        target_date: { from: o.targetDate, to: body.target_date },
        ...(status !== o.status ? { status: { from: o.status, to: status } } : {}),
      },
    },
  });
  const newcomers = [body.lead_id, ...body.member_ids].filter((u) => !before.has(u));
  const mail = await tellTeam(tx, deps, newcomers, actor.userId, { ...o, targetDate: body.target_date });
  return async () => {
    announce(deps, o.organizationId, o.id);
    if (mail.length > 0) await dispatchTemplatedMail(deps, mail);
  };
}

/**
 * PUT /api/incidents/{id}/facts (step 3): the timeline (each event not in the future at the site),
 * the witnesses (a member named by id must be an active member) and the evidence files, each
 * replaced as a whole.
 */
export async function recordFacts(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  body: IncidentFacts,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  requireAbility(ctx, 'edit_investigation');
  const o = ctx.row;
  const site = await siteOf(tx, o.siteId);
  const fields: FieldErrors = {};
  body.timeline.forEach((e, i) =>
    checkNotFuture(e.at, site.timeZone, `timeline.${i}.at`, fields, now, 'incidents.validation.timelineFuture'),
  );
  const named = body.witnesses.map((w) => w.user_id).filter((u): u is string => !!u);
  const people = await activeMembers(tx, named);
  body.witnesses.forEach((w, i) => {
    if (w.user_id && !people.has(w.user_id)) fields[`witnesses.${i}.user_id`] = 'incidents.validation.memberUnknown';
  });
  const evidence = await replaceFiles(tx, deps, actor, o.id, 'evidence', body.evidence_ids, 'evidence_ids', fields);
  refuse(fields);

  await tx.delete(incidentTimeline).where(eq(incidentTimeline.incidentId, o.id));
  if (body.timeline.length > 0) {
    await tx
      .insert(incidentTimeline)
      .values(
        body.timeline.map((e, position) => ({ incidentId: o.id, position, atLocal: toPgTimestamp(e.at), description: e.description })),
      );
  }
  await tx.delete(incidentWitnesses).where(eq(incidentWitnesses.incidentId, o.id));
  if (body.witnesses.length > 0) {
    await tx.insert(incidentWitnesses).values(
      body.witnesses.map((w, position) => ({
        incidentId: o.id,
        position,
        name: w.name,
        userId: w.user_id,
        statement: w.statement,
        contact: w.contact,
      })),
    );
  }
  const purges = await evidence.write();
  await tx.update(incidents).set({ updatedAt: now }).where(eq(incidents.id, o.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_facts_updated',
    entity: ENTITY,
    entityId: o.id,
    changes: {
      diff: {
        timeline: { from: ctx.snapshot.timelineCount, to: body.timeline.length },
        witnesses: { from: null, to: body.witnesses.length },
        ...(evidence.added.length || evidence.removed.length
          ? { evidence: { from: evidence.removed.length, to: evidence.added.length } }
          : {}),
      },
    },
  });
  return async () => {
    announce(deps, o.organizationId, o.id);
    await Promise.allSettled(purges.map((p) => p()));
  };
}

/** The local time of a timeline row, as the API speaks it. */
export const timelineAt = toLocalText;
