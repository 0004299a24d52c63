import { isLiveStatus, localDateTimeIn, permitTimeStatus, statusAfterExtension } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import { deferUntilCommit } from '../../platform/db/after-commit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { dispatchTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import type { ReviewRecord } from '../workflows/review.js';
import { toPgTimestamp } from './checks.js';
import { headOfSafetyOf, mailTime, nameOf, permitPath, tellAbout, type PermitsDeps } from './notify.js';
import { PERMIT_ENTITY, numberOf, pendingExtension } from './record.js';
import { permitExtensions, permits, permitTemplates } from './tables.js';

const HOUR = 3_600_000;

/**
 * How the review engine names and routes a permit: the workflow naming its template wins over one
 * naming its site; a rejection goes back to its requester, who never reviews their own permit.
 */
export async function describeForReview(tx: Tx, id: string): Promise<ReviewRecord> {
  const [row] = await tx
    .select({ p: permits, templateName: permitTemplates.name })
    .from(permits)
    .innerJoin(permitTemplates, eq(permitTemplates.id, permits.templateId))
    .where(eq(permits.id, id));
  if (!row?.p.siteId) throw new AppError('not_found');
  return {
    label: `${numberOf(row.p)} ${row.templateName}`,
    path: permitPath(id),
    siteId: row.p.siteId,
    formId: row.p.templateId,
    ownerId: row.p.requesterId,
  };
}

/**
 * The engine's hook, in the deciding transaction, when a round ends. The permit's own round issues it
 * (or rejects it: final); an extension's round adds the template's hours to the end (or leaves it);
 * the round of an extension withdrawn by revoking or closing changes nothing. The site's head of
 * safety hears the permit's outcome and the requester its extension (the engine tells the requester
 * and the submitter of every outcome itself). `deps` is null when no app is running (mails skipped).
 */
export async function onPermitDecided(
  tx: Tx,
  deps: PermitsDeps | null,
  id: string,
  outcome: 'approved' | 'rejected',
  by: { userId: string; comment: string | null },
  now = new Date(),
): Promise<void> {
  const [row] = await tx.select().from(permits).where(eq(permits.id, id)).for('update');
  if (!row) return;
  const ext = await pendingExtension(tx, id);
  const site = await headOfSafetyOf(tx, row.siteId);
  const deciderName = await nameOf(tx, by.userId);
  const audit = (action: string, changes: Record<string, unknown>) =>
    recordAudit(tx, { actorUserId: by.userId, action, entity: PERMIT_ENTITY, entityId: id, changes: { ...changes, comment: by.comment } });
  const mail: QueuedTemplatedMail[] = [];
  type Tell = Parameters<typeof tellAbout>;
  const tell = async (scenario: Tell[2], ids: Tell[3], actorId: Tell[4], permit: Tell[5], vars: Tell[6]) => {
    if (deps) mail.push(...(await tellAbout(tx, deps, scenario, ids, actorId, permit, vars)));
  };

  if (row.status === 'requested') {
    const status = outcome === 'approved' ? permitTimeStatus('approved', row.endAt, now) : 'rejected';
    await tx
      .update(permits)
      .set({ status, ...(outcome === 'approved' ? { approvedAt: now } : {}), updatedAt: now })
      .where(eq(permits.id, id));
    await audit(outcome === 'approved' ? 'permit_approved' : 'permit_rejected', { status: { from: row.status, to: status } });
    if (outcome === 'approved') await tell('permit_approved', [site.id], by.userId, row, () => ({ approved_by: deciderName }));
    else await tell('permit_rejected', [site.id], by.userId, row, () => ({ rejected_by: deciderName, reason: by.comment ?? '' }));
  } else if (ext && isLiveStatus(row.status)) {
    if (outcome === 'approved') {
      const end = new Date(row.endAt!.getTime() + ext.hours * HOUR);
      const local = localDateTimeIn(site.timeZone, end);
      const status = statusAfterExtension(end, now);
      await tx
        .update(permits)
        .set({ status, endAt: end, endLocal: toPgTimestamp(local), updatedAt: now })
        .where(eq(permits.id, id));
      await tx.update(permitExtensions).set({ state: 'approved', endAfter: end, decidedAt: now }).where(eq(permitExtensions.id, ext.id));
      await audit('permit_extension_approved', { status: { from: row.status, to: status }, end: { from: row.endAt, to: end } });
      await tell('permit_extended', [row.requesterId, site.id], by.userId, row, () => ({ end_time: mailTime(local, site.timeZone) }));
    } else {
      await tx.update(permitExtensions).set({ state: 'rejected', decidedAt: now }).where(eq(permitExtensions.id, ext.id));
      await audit('permit_extension_rejected', {});
    }
  }
  // Outside a request (a job's transaction has no after-commit queue) the mails stay in the outbox.
  if (deps && mail.length > 0) deferUntilCommit(tx, () => dispatchTemplatedMail(deps, mail));
}
