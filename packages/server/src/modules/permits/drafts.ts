import { localDateTimeIn, type PermitCreate } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { roleActions, users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { removeReviews } from '../workflows/review.js';
import type { QueuedTemplatedMail } from '../mailers/send.js';
import { sites } from '../sites/read.js';
import { answerInputs } from './form-snapshot.js';
import { nameOf, tellAbout, type PermitsDeps } from './notify.js';
import { PERMIT_ENTITY, loadPermit, type PermitRow } from './record.js';
import { createDraft, valuesOf } from './requests.js';
import { permitFiles, permits, permitShares } from './tables.js';
import { activeWorkers } from './workers.js';
import { sectionsOf } from './template-read.js';

/** An active member (not a guest) whose role reads permits: who a draft may be shared with. */
async function permitReader(tx: Tx, userId: string): Promise<boolean> {
  const [u] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        eq(users.status, 'Active'),
        eq(users.isGuest, false),
        eq(users.isPlatformAdmin, false),
        sql`exists (select 1 from ${roleActions} ra where ra.organization_id = ${users.organizationId}
          and ra.role_id = ${users.roleId} and ra.name = 'Permit' and ra.r_view)`,
      ),
    );
  return u !== undefined;
}

/**
 * POST /api/permit_form_questions/{permit_id}/permit_request_send_draft: the requester or a person the
 * draft was shared with shares it on (spec 001 §3 shared_by, shared_to); the receiver is told.
 */
export async function shareDraft(tx: Tx, deps: PermitsDeps, actor: Principal, id: string, userId: string): Promise<QueuedTemplatedMail[]> {
  const { row, sharedWith } = await loadPermit(tx, actor, id, true);
  if (row.status !== 'draft') throw new AppError('conflict', { messageKey: 'permits.errors.notDraft' });
  if (userId === row.requesterId || sharedWith.includes(userId)) {
    throw new AppError('validation_failed', { fields: { user_id: 'permits.validation.shareSelf' } });
  }
  if (!(await permitReader(tx, userId))) throw new AppError('validation_failed', { fields: { user_id: 'permits.validation.userUnknown' } });
  await tx.insert(permitShares).values({ permitId: row.id, userId, sharedBy: actor.userId });
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_shared',
    entity: PERMIT_ENTITY,
    entityId: row.id,
    changes: { user_id: userId },
  });
  const by = await nameOf(tx, actor.userId);
  return tellAbout(tx, deps, 'permit_draft_shared', [userId], actor.userId, row, () => ({ shared_by: by }));
}

/** DELETE /api/permit_requests/{id}/shares/{user_id}: the requester stops sharing, or a receiver leaves. */
export async function unshareDraft(tx: Tx, actor: Principal, id: string, userId: string): Promise<void> {
  const { row, sharedWith } = await loadPermit(tx, actor, id, true);
  if (row.status !== 'draft') throw new AppError('conflict', { messageKey: 'permits.errors.notDraft' });
  if (!sharedWith.includes(userId)) throw new AppError('not_found');
  if (actor.userId !== row.requesterId && actor.userId !== userId) {
    throw new AppError('forbidden', { messageKey: 'permits.errors.notYours' });
  }
  await tx.delete(permitShares).where(and(eq(permitShares.permitId, row.id), eq(permitShares.userId, userId)));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_unshared',
    entity: PERMIT_ENTITY,
    entityId: row.id,
    changes: { user_id: userId },
  });
}

/**
 * DELETE /api/permit_requests/{id}: a draft (its authors), or a permit never issued (requested,
 * rejected); an issued permit is a record and stays. Its files and its review go with it.
 */
export async function deletePermit(
  tx: Tx,
  deps: PermitsDeps,
  actor: Principal,
  id: string,
): Promise<{ row: PermitRow; purges: Array<() => Promise<void>> }> {
  const { row } = await loadPermit(tx, actor, id, true);
  if (!['draft', 'requested', 'rejected'].includes(row.status))
    throw new AppError('conflict', { messageKey: `permits.errors.notWhile.${row.status}` });
  const linked = await tx.select({ fileId: permitFiles.fileId }).from(permitFiles).where(eq(permitFiles.permitId, row.id));
  await removeReviews(tx, 'permits', row.id);
  await tx.delete(permits).where(eq(permits.id, row.id));
  const purges: Array<() => Promise<void>> = [];
  for (const { fileId } of linked) {
    const removed = await deps.storage.remove(tx, fileId);
    if (removed) purges.push(removed.purge);
  }
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_deleted',
    entity: PERMIT_ENTITY,
    entityId: row.id,
    changes: { serial: row.serial, prefix: row.prefix, status: row.status },
  });
  return { row, purges };
}

const HOUR = 3_600_000;

/**
 * POST /api/permit_requests/{id}/clone: a new draft of the caller from a permit they may read: its
 * type, site, area, description, active workers and request answers (files stay with the original),
 * starting at the next full hour at the site, ending after the template's default hours.
 */
export async function clonePermit(tx: Tx, actor: Principal, id: string, now = new Date()): Promise<PermitRow> {
  const { row } = await loadPermit(tx, actor, id);
  const values = await valuesOf(tx, row);
  const [site] = row.siteId
    ? await tx.select({ zone: sites.timeZone, active: sites.isActive }).from(sites).where(eq(sites.id, row.siteId))
    : [];
  const form = await sectionsOf(tx, row.templateId, true);
  const questions = new Map(form.flatMap((s) => s.questions.map((q) => [q.id, q])));
  const answers: PermitCreate['answers'] = {};
  for (const [qid, v] of Object.entries(answerInputs(row.answers))) {
    const q = questions.get(qid);
    if (!q || q.type === 'attachment' || q.type === 'hidden_field' || v === undefined) continue;
    answers[qid] = typeof v === 'string' || v === null ? v : [...v];
  }
  const workers = await activeWorkers(tx, values.worker_ids);
  const start = new Date(Math.ceil(now.getTime() / HOUR) * HOUR);
  const body: Omit<PermitCreate, 'submit'> = {
    template_id: row.templateId,
    site_id: site?.active ? row.siteId : null,
    site_node_id: site?.active ? row.siteNodeId : null,
    start_at: site?.active ? localDateTimeIn(site.zone, start) : null,
    end_at: null,
    description: row.description,
    worker_ids: values.worker_ids.filter((w) => workers.has(w)),
    answers,
    attachment_ids: [],
  };
  return createDraft(tx, actor, body, { complete: false, clonedFrom: row.id }, now);
}
