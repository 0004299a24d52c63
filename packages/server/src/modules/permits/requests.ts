import { randomBytes } from 'node:crypto';
import type { PermitCreate, PermitUpdate } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { checkRequest, fromPgTimestamp, toPgTimestamp, type CheckedRequest, type RequestValues } from './checks.js';
import { answerInputs, type StoredSection } from './form-snapshot.js';
import { PERMIT_ENTITY, loadPermit, type PermitRow } from './record.js';
import { loadTemplate, sectionsOf } from './template-read.js';
import { permitFiles, permits, permitSerials, permitWorkers } from './tables.js';

/** The next serial of the organisation; the upsert locks its counter row until the transaction ends. */
async function nextSerial(tx: Tx): Promise<number> {
  const [row] = await tx
    .insert(permitSerials)
    .values({ lastSerial: 1 })
    .onConflictDoUpdate({ target: permitSerials.organizationId, set: { lastSerial: sql`${permitSerials.lastSerial} + 1` } })
    .returning({ serial: permitSerials.lastSerial });
  return row!.serial;
}

/** The token of the public status page: 32 random bytes, unguessable. */
export const newStatusToken = () => randomBytes(32).toString('base64url');

/** The template a new permit is raised from: it must exist and be switched on. */
export async function enabledTemplate(tx: Tx, templateId: string) {
  const t = await loadTemplate(tx, templateId).catch(() => {
    throw new AppError('validation_failed', { fields: { template_id: 'permits.validation.templateUnknown' } });
  });
  if (!t.enabled)
    throw new AppError('conflict', {
      messageKey: 'permits.errors.templateDisabled',
      fields: { template_id: 'permits.errors.templateDisabled' },
    });
  return t;
}

/** Writes a checked request into the permit: its fields, form, workers and files (the lists whole). */
export async function writeRequest(
  tx: Tx,
  permitId: string,
  form: StoredSection[],
  checked: CheckedRequest,
  values: Pick<RequestValues, 'description' | 'worker_ids'>,
  now: Date,
): Promise<void> {
  await tx
    .update(permits)
    .set({
      siteId: checked.site?.id ?? null,
      siteNodeId: checked.siteNodeId,
      startAt: checked.start?.at ?? null,
      startLocal: checked.start ? toPgTimestamp(checked.start.local) : null,
      endAt: checked.end?.at ?? null,
      endLocal: checked.end ? toPgTimestamp(checked.end.local) : null,
      description: values.description,
      form,
      answers: checked.answers,
      updatedAt: now,
    })
    .where(eq(permits.id, permitId));
  await tx.delete(permitWorkers).where(eq(permitWorkers.permitId, permitId));
  if (values.worker_ids.length > 0) {
    await tx.insert(permitWorkers).values(values.worker_ids.map((workerId, i) => ({ permitId, workerId, position: i + 1 })));
  }
  // Files the draft no longer names become unlinked: the hourly sweep frees them a day later.
  await tx.delete(permitFiles).where(eq(permitFiles.permitId, permitId));
  if (checked.files.length > 0) await tx.insert(permitFiles).values(checked.files.map((f) => ({ permitId, ...f })));
}

/** The stored request's values, as the form would send them again. */
export async function valuesOf(tx: Tx, row: PermitRow): Promise<RequestValues> {
  const workers = await tx
    .select({ id: permitWorkers.workerId })
    .from(permitWorkers)
    .where(eq(permitWorkers.permitId, row.id))
    .orderBy(permitWorkers.position);
  const fileRows = await tx.select().from(permitFiles).where(eq(permitFiles.permitId, row.id));
  return {
    site_id: row.siteId,
    site_node_id: row.siteNodeId,
    start_at: fromPgTimestamp(row.startLocal),
    end_at: fromPgTimestamp(row.endLocal),
    description: row.description,
    worker_ids: workers.map((w) => w.id),
    answers: answerInputs(row.answers),
    attachment_ids: fileRows.filter((f) => f.questionId === null).map((f) => f.fileId),
  };
}

/** POST /api/permit_requests (before submitting): a draft of a switched-on template, its requester the caller. */
export async function createDraft(
  tx: Tx,
  actor: Principal,
  body: Omit<PermitCreate, 'submit'>,
  options: { complete: boolean; clonedFrom?: string | null },
  now = new Date(),
): Promise<PermitRow> {
  const template = await enabledTemplate(tx, body.template_id);
  const form = await sectionsOf(tx, template.id, true);
  const values: RequestValues = { ...body, description: body.description };
  const checked = await checkRequest(
    tx,
    { permitId: null, uploader: actor.userId, sections: form, defaultHours: template.defaultHours, complete: options.complete },
    values,
  );
  const [row] = await tx
    .insert(permits)
    .values({
      serial: await nextSerial(tx),
      prefix: template.prefix,
      templateId: template.id,
      requesterId: actor.userId,
      statusToken: newStatusToken(),
      clonedFrom: options.clonedFrom ?? null,
    })
    .returning();
  await writeRequest(tx, row!.id, form, checked, values, now);
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: options.clonedFrom ? 'permit_cloned' : 'permit_created',
    entity: PERMIT_ENTITY,
    entityId: row!.id,
    changes: { serial: row!.serial, template_id: template.id, ...(options.clonedFrom ? { cloned_from: options.clonedFrom } : {}) },
  });
  return row!;
}

/**
 * PATCH /api/permit_requests/{id}: a draft, by its requester or a person it was shared with. The draft
 * follows its template (its form is taken again); a submitted permit changes by its commands alone.
 */
export async function updateDraft(tx: Tx, actor: Principal, id: string, body: PermitUpdate, now = new Date()): Promise<void> {
  const { row } = await loadPermit(tx, actor, id, true);
  if (row.status !== 'draft') throw new AppError('conflict', { messageKey: 'permits.errors.notDraft' });
  const template = await loadTemplate(tx, row.templateId);
  const form = await sectionsOf(tx, template.id, true);
  const stored = await valuesOf(tx, row);
  const values: RequestValues = {
    site_id: body.site_id !== undefined ? body.site_id : stored.site_id,
    site_node_id: body.site_node_id !== undefined ? body.site_node_id : body.site_id !== undefined ? null : stored.site_node_id,
    start_at: body.start_at !== undefined ? body.start_at : stored.start_at,
    // A new start without an end moves the end to the template's default hours after it.
    end_at: body.end_at !== undefined ? body.end_at : body.start_at !== undefined ? null : stored.end_at,
    description: body.description !== undefined ? body.description : stored.description,
    worker_ids: body.worker_ids ?? stored.worker_ids,
    answers: body.answers ?? stored.answers,
    attachment_ids: body.attachment_ids ?? stored.attachment_ids,
  };
  const checked = await checkRequest(
    tx,
    { permitId: row.id, uploader: actor.userId, sections: form, defaultHours: template.defaultHours, complete: false },
    values,
  );
  await writeRequest(tx, row.id, form, checked, values, now);
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_updated',
    entity: PERMIT_ENTITY,
    entityId: row.id,
    changes: { fields: Object.keys(body) },
  });
}
