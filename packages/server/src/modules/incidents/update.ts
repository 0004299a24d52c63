import { localDateTimeToInstant, type IncidentUpdate } from '@bulwark/domain';
import { and, eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import {
  checkCategory,
  checkFiles,
  checkNode,
  checkNotFuture,
  checkSite,
  refuse,
  toLocalText,
  toPgTimestamp,
  type FieldErrors,
} from './checks.js';
import { ENTITY, type AfterCommit } from './create.js';
import type { IncidentsDeps } from './notify.js';
import { incidentContext, requireAbility, type IncidentRow } from './record.js';
import { incidentAttachments, incidents } from './tables.js';
import { syncCaseNumbers, victimsOf, writeVictims } from './victims.js';

const EDITABLE = {
  type: 'type',
  category_id: 'categoryId',
  description: 'description',
  site_id: 'siteId',
  site_node_id: 'siteNodeId',
  shift: 'shift',
  severity: 'severity',
  likelihood: 'likelihood',
  investigation_required: 'investigationRequired',
  action_taken: 'actionTaken',
  osha_work_related: 'oshaWorkRelated',
} as const satisfies Record<string, keyof IncidentRow>;

/** The files of one kind linked to the incident. */
export async function filesOf(tx: Tx, incidentId: string, kind: 'report' | 'evidence'): Promise<string[]> {
  return (
    await tx
      .select({ fileId: incidentAttachments.fileId })
      .from(incidentAttachments)
      .where(and(eq(incidentAttachments.incidentId, incidentId), eq(incidentAttachments.kind, kind)))
  ).map((r) => r.fileId);
}

/**
 * Sets the incident's files of one kind to `wanted`: new ones must be the actor's unlinked uploads,
 * dropped ones are deleted (their bytes after the commit). Returns the purges and the counts changed.
 */
export async function replaceFiles(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  incidentId: string,
  kind: 'report' | 'evidence',
  wanted: readonly string[],
  field: string,
  fields: FieldErrors,
): Promise<{ added: string[]; removed: string[]; write: () => Promise<Array<() => Promise<void>>> }> {
  const current = await filesOf(tx, incidentId, kind);
  const added = wanted.filter((f) => !current.includes(f));
  const removed = current.filter((f) => !wanted.includes(f));
  await checkFiles(tx, added, actor.userId, field, fields);
  return {
    added,
    removed,
    write: async () => {
      if (added.length > 0) {
        await tx.insert(incidentAttachments).values(added.map((fileId) => ({ incidentId, fileId, kind })));
        await deps.storage.link(tx, added);
      }
      const purges: Array<() => Promise<void>> = [];
      for (const fileId of removed) {
        const gone = await deps.storage.remove(tx, fileId);
        if (gone) purges.push(gone.purge);
      }
      return purges;
    },
  };
}

/**
 * PATCH /api/v2/incidents/{id}: the report's fields (step 1). The team, Incident update holders and,
 * under review, the reviewers whose turn it is. The record as it will be is checked as a whole before
 * anything is written.
 */
export async function updateIncident(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  body: IncidentUpdate,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  requireAbility(ctx, 'edit_report');
  const o = ctx.row;
  const { victims, attachment_ids: attachmentIds, occurred_at: occurredAt, ...rest } = body;

  const merged = {
    type: rest.type ?? o.type,
    category_id: rest.category_id !== undefined ? rest.category_id : o.categoryId,
    site_id: rest.site_id ?? o.siteId,
    site_node_id: rest.site_node_id !== undefined ? rest.site_node_id : rest.site_id && rest.site_id !== o.siteId ? null : o.siteNodeId,
    occurred_at: occurredAt ?? toLocalText(o.occurredLocal),
    investigation_required: rest.investigation_required ?? o.investigationRequired,
  };
  // A new type leaves the old category behind unless a category of the new type is given.
  if (rest.type && rest.type !== o.type && rest.category_id === undefined) merged.category_id = null;
  // Calling the investigation off is possible only before its team is formed.
  if (
    merged.investigation_required !== o.investigationRequired &&
    !merged.investigation_required &&
    o.investigationState !== 'awaiting_team'
  )
    throw new AppError('conflict', {
      messageKey: 'incidents.validation.investigationStarted',
      fields: { investigation_required: 'incidents.validation.investigationStarted' },
    });

  const fields: FieldErrors = {};
  const site = await checkSite(tx, merged.site_id, fields);
  if (site) {
    await checkNode(tx, site.id, merged.site_node_id, fields);
    if (occurredAt !== undefined || merged.site_id !== o.siteId)
      checkNotFuture(merged.occurred_at, site.timeZone, 'occurred_at', fields, now, 'incidents.validation.futureTime');
  }
  await checkCategory(tx, merged.type, merged.category_id, fields);
  // The victims kept must still return to work on or after the (new) day of the incident.
  const day = merged.occurred_at.slice(0, 10);
  victims?.forEach((v, i) => {
    if (v.return_to_work_date && v.return_to_work_date < day)
      fields[`victims.${i}.return_to_work_date`] = 'incidents.validation.returnBeforeIncident';
  });
  if (!victims && occurredAt !== undefined) {
    (await victimsOf(tx, [o.id])).forEach((v, i) => {
      if (v.returnToWorkDate && v.returnToWorkDate < day)
        fields[`victims.${i}.return_to_work_date`] = 'incidents.validation.returnBeforeIncident';
    });
  }
  const files = attachmentIds ? await replaceFiles(tx, deps, actor, o.id, 'report', attachmentIds, 'attachment_ids', fields) : null;
  refuse(fields);

  const next: Record<keyof typeof EDITABLE, unknown> = {
    type: merged.type,
    category_id: merged.category_id,
    description: rest.description ?? o.description,
    site_id: merged.site_id,
    site_node_id: merged.site_node_id,
    shift: rest.shift !== undefined ? rest.shift : o.shift,
    severity: rest.severity !== undefined ? rest.severity : o.severity,
    likelihood: rest.likelihood !== undefined ? rest.likelihood : o.likelihood,
    investigation_required: merged.investigation_required,
    action_taken: rest.action_taken ?? o.actionTaken,
    osha_work_related: rest.osha_work_related !== undefined ? rest.osha_work_related : o.oshaWorkRelated,
  };
  const set: Partial<typeof incidents.$inferInsert> = {};
  const diff: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, column] of Object.entries(EDITABLE) as Array<[keyof typeof EDITABLE, keyof IncidentRow]>) {
    if (next[field] !== o[column]) {
      diff[field] = { from: o[column], to: next[field] };
      (set as Record<string, unknown>)[column] = next[field];
    }
  }
  if (merged.investigation_required !== o.investigationRequired)
    set.investigationState = merged.investigation_required ? 'awaiting_team' : 'not_required';
  if (merged.occurred_at !== toLocalText(o.occurredLocal) || merged.site_id !== o.siteId) {
    set.occurredLocal = toPgTimestamp(merged.occurred_at);
    set.occurredAt = localDateTimeToInstant(merged.occurred_at, site!.timeZone);
    if (merged.occurred_at !== toLocalText(o.occurredLocal))
      diff['occurred_at'] = { from: toLocalText(o.occurredLocal), to: merged.occurred_at };
  }
  if (Object.keys(set).length > 0)
    await tx
      .update(incidents)
      .set({ ...set, updatedAt: now })
      .where(eq(incidents.id, o.id));
  const after = {
    id: o.id,
    siteId: merged.site_id,
    occurredLocal: set.occurredLocal ?? o.occurredLocal,
    oshaWorkRelated: next.osha_work_related as boolean | null,
  };
  if (victims) {
    await writeVictims(tx, after, victims, fields);
    refuse(fields);
    diff['victims'] = { from: null, to: victims.length };
  } else {
    await syncCaseNumbers(tx, after);
  }
  const purges = files ? await files.write() : [];
  if (files?.added.length) diff['attachments_added'] = { from: null, to: files.added.length };
  if (files?.removed.length) diff['attachments_removed'] = { from: files.removed.length, to: null };
  if (Object.keys(diff).length > 0) {
    await recordAudit(tx, { actorUserId: actor.userId, action: 'incident_updated', entity: ENTITY, entityId: o.id, changes: { diff } });
  }
  const organizationId = o.organizationId;
  return async () => {
    deps.push.toOrganization(organizationId, { channel: 'incidents', change: 'updated', id: o.id });
    await Promise.allSettled(purges.map((p) => p()));
  };
}
