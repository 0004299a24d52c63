import { translate, type Language, type PermitTemplateCreate, type PermitTemplateDetail, type PermitTemplateUpdate } from '@bulwark/domain';
import { and, count, eq, inArray, ne, or } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { writeDefaultSections } from './defaults.js';
import { loadTemplate, templateDetail } from './template-read.js';
import { permitTemplateConflicts, permitTemplates, permits } from './tables.js';

export const TEMPLATE_ENTITY = 'PermitTemplate';

/**
 * A prefix is one template's: another template using it is a conflict (409, as the contract says and as
 * every other "already taken" name is), naming the prefix field.
 */
async function checkPrefix(tx: Tx, prefix: string, exceptId: string | null): Promise<void> {
  const [taken] = await tx
    .select({ id: permitTemplates.id })
    .from(permitTemplates)
    .where(and(eq(permitTemplates.prefix, prefix), exceptId ? ne(permitTemplates.id, exceptId) : undefined));
  if (taken) throw new AppError('conflict', { fields: { prefix: 'permits.validation.prefixTaken' } });
}

/** POST /api/permits: a template with the four default sections, texts in the creator's language. */
export async function createTemplate(tx: Tx, actor: Principal, body: PermitTemplateCreate, lang: Language): Promise<PermitTemplateDetail> {
  await checkPrefix(tx, body.prefix, null);
  const [row] = await tx
    .insert(permitTemplates)
    .values({
      name: body.name,
      description: body.description,
      prefix: body.prefix,
      defaultHours: body.default_hours,
      extensionHours: body.extension_hours,
      extensionDeclaration: body.extension_declaration ?? translate(lang, 'permits.defaults.declaration'),
      enabled: body.enabled,
      createdBy: actor.userId,
    })
    .returning();
  await writeDefaultSections(tx, row!.id, lang);
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_template_created',
    entity: TEMPLATE_ENTITY,
    entityId: row!.id,
    changes: { name: row!.name, prefix: row!.prefix },
  });
  return templateDetail(tx, row!.id);
}

/** The whole list of conflicting templates of one template, kept as pairs (a <= b) both ways. */
async function writeConflicts(tx: Tx, templateId: string, ids: readonly string[]): Promise<void> {
  const known = ids.length
    ? await tx
        .select({ id: permitTemplates.id })
        .from(permitTemplates)
        .where(inArray(permitTemplates.id, [...ids]))
    : [];
  if (known.length !== ids.length) {
    throw new AppError('validation_failed', { fields: { conflict_template_ids: 'permits.validation.templateUnknown' } });
  }
  await tx
    .delete(permitTemplateConflicts)
    .where(or(eq(permitTemplateConflicts.templateA, templateId), eq(permitTemplateConflicts.templateB, templateId)));
  if (ids.length === 0) return;
  await tx
    .insert(permitTemplateConflicts)
    .values(
      ids.map((other) => (other < templateId ? { templateA: other, templateB: templateId } : { templateA: templateId, templateB: other })),
    );
}

/** PATCH /api/permits/{id}: fields, the enable switch, and the conflicting types. */
export async function updateTemplate(tx: Tx, actor: Principal, id: string, body: PermitTemplateUpdate): Promise<PermitTemplateDetail> {
  const before = await loadTemplate(tx, id, true);
  if (body.prefix !== undefined) await checkPrefix(tx, body.prefix, id);
  const set: Partial<typeof permitTemplates.$inferInsert> = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.prefix !== undefined ? { prefix: body.prefix } : {}),
    ...(body.default_hours !== undefined ? { defaultHours: body.default_hours } : {}),
    ...(body.extension_hours !== undefined ? { extensionHours: body.extension_hours } : {}),
    ...(body.extension_declaration !== undefined ? { extensionDeclaration: body.extension_declaration } : {}),
    ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
  };
  await tx
    .update(permitTemplates)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(permitTemplates.id, id));
  if (body.conflict_template_ids !== undefined) await writeConflicts(tx, id, body.conflict_template_ids);
  const diff = Object.fromEntries(
    Object.entries(set)
      .filter(([k, v]) => before[k as keyof typeof before] !== v)
      .map(([k, v]) => [k, { from: before[k as keyof typeof before], to: v }]),
  );
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_template_updated',
    entity: TEMPLATE_ENTITY,
    entityId: id,
    changes: { diff, ...(body.conflict_template_ids !== undefined ? { conflicts: body.conflict_template_ids } : {}) },
  });
  return templateDetail(tx, id);
}

/** DELETE /api/permits/{id}: only a template no permit was raised from (its permits keep their type). */
export async function deleteTemplate(tx: Tx, actor: Principal, id: string): Promise<void> {
  const t = await loadTemplate(tx, id, true);
  const [used] = await tx.select({ n: count() }).from(permits).where(eq(permits.templateId, id));
  if (Number(used?.n ?? 0) > 0) throw new AppError('conflict', { messageKey: 'permits.errors.templateInUse' });
  await tx.delete(permitTemplates).where(eq(permitTemplates.id, id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'permit_template_deleted',
    entity: TEMPLATE_ENTITY,
    entityId: id,
    changes: { name: t.name, prefix: t.prefix },
  });
}
