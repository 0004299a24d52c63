import { PERMIT_SECTIONS_MAX, isFixedSection, mayRemoveSection, type PermitSection } from '@bulwark/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { loadTemplate, sectionsOf } from './template-read.js';
import { permitTemplateQuestions, permitTemplateSections, permitTemplates } from './tables.js';
import { TEMPLATE_ENTITY } from './templates.js';

/** A section of the template (locked), or "not found". */
export async function loadSection(tx: Tx, templateId: string, sectionId: string) {
  const [row] = await tx
    .select()
    .from(permitTemplateSections)
    .where(and(eq(permitTemplateSections.templateId, templateId), eq(permitTemplateSections.id, sectionId)))
    .for('update');
  if (!row) throw new AppError('not_found');
  return row;
}

/** Numbers the template's sections 1..n, with `movingId` at `position` (clamped) when given. */
export async function renumberSections(tx: Tx, templateId: string, moving?: { id: string; position: number }): Promise<void> {
  const rows = await tx
    .select({ id: permitTemplateSections.id })
    .from(permitTemplateSections)
    .where(eq(permitTemplateSections.templateId, templateId))
    .orderBy(asc(permitTemplateSections.position), asc(permitTemplateSections.createdAt));
  const order = rows.map((r) => r.id).filter((id) => id !== moving?.id);
  if (moving) order.splice(Math.min(Math.max(moving.position - 1, 0), order.length), 0, moving.id);
  for (const [i, id] of order.entries()) {
    await tx
      .update(permitTemplateSections)
      .set({ position: i + 1 })
      .where(eq(permitTemplateSections.id, id));
  }
}

export async function touchTemplate(tx: Tx, actor: Principal, templateId: string, action: string, changes: Record<string, unknown>) {
  await tx.update(permitTemplates).set({ updatedAt: new Date() }).where(eq(permitTemplates.id, templateId));
  await recordAudit(tx, { actorUserId: actor.userId, action, entity: TEMPLATE_ENTITY, entityId: templateId, changes });
}

/** A new custom section, at the end or at `position`. */
export async function insertSection(tx: Tx, templateId: string, name: string, position: number | undefined): Promise<string> {
  const existing = await tx
    .select({ id: permitTemplateSections.id })
    .from(permitTemplateSections)
    .where(eq(permitTemplateSections.templateId, templateId));
  if (existing.length >= PERMIT_SECTIONS_MAX) {
    throw new AppError('validation_failed', { fields: { name: 'permits.validation.tooManySections' } });
  }
  const [row] = await tx
    .insert(permitTemplateSections)
    .values({ templateId, name, kind: 'custom', position: existing.length + 1 })
    .returning({ id: permitTemplateSections.id });
  if (position !== undefined) await renumberSections(tx, templateId, { id: row!.id, position });
  return row!.id;
}

/** POST /api/permits/{id}/form_types. */
export async function addFormType(
  tx: Tx,
  actor: Principal,
  templateId: string,
  body: { name: string; position?: number | undefined },
): Promise<PermitSection> {
  await loadTemplate(tx, templateId, true);
  const id = await insertSection(tx, templateId, body.name, body.position);
  await touchTemplate(tx, actor, templateId, 'permit_section_added', { section_id: id, name: body.name });
  return (await sectionsOf(tx, templateId)).find((s) => s.id === id)!;
}

/** PATCH /api/permits/{id}/form_types/{form_type_id}: rename, move, switch on or off (not a fixed one off). */
export async function updateFormType(
  tx: Tx,
  actor: Principal,
  templateId: string,
  sectionId: string,
  body: { name?: string | undefined; position?: number | undefined; active?: boolean | undefined },
): Promise<PermitSection[]> {
  await loadTemplate(tx, templateId, true);
  const s = await loadSection(tx, templateId, sectionId);
  if (body.active === false && isFixedSection(s.kind)) throw new AppError('conflict', { messageKey: 'permits.errors.sectionFixed' });
  await tx
    .update(permitTemplateSections)
    .set({ ...(body.name !== undefined ? { name: body.name } : {}), ...(body.active !== undefined ? { active: body.active } : {}) })
    .where(eq(permitTemplateSections.id, sectionId));
  if (body.position !== undefined) await renumberSections(tx, templateId, { id: sectionId, position: body.position });
  await touchTemplate(tx, actor, templateId, 'permit_section_updated', { section_id: sectionId, ...body });
  return sectionsOf(tx, templateId);
}

/**
 * Questions elsewhere in the template that were shown depending on these questions lose their
 * condition (they are then always shown) before these go.
 */
export async function releaseDependents(tx: Tx, questionIds: readonly string[]): Promise<void> {
  if (questionIds.length === 0) return;
  await tx
    .update(permitTemplateQuestions)
    .set({ conditionQuestionId: null, conditionAnswer: null })
    .where(inArray(permitTemplateQuestions.conditionQuestionId, [...questionIds]));
}

/** DELETE a section with its questions (both the form_types and the sections calls). */
export async function removeSection(tx: Tx, actor: Principal, templateId: string, sectionId: string): Promise<PermitSection[]> {
  await loadTemplate(tx, templateId, true);
  const s = await loadSection(tx, templateId, sectionId);
  if (!mayRemoveSection(s.kind)) throw new AppError('conflict', { messageKey: 'permits.errors.sectionFixed' });
  const questions = await tx
    .select({ id: permitTemplateQuestions.id })
    .from(permitTemplateQuestions)
    .where(eq(permitTemplateQuestions.sectionId, sectionId));
  await releaseDependents(
    tx,
    questions.map((q) => q.id),
  );
  await tx.delete(permitTemplateSections).where(eq(permitTemplateSections.id, sectionId));
  await renumberSections(tx, templateId);
  await touchTemplate(tx, actor, templateId, 'permit_section_removed', { section_id: sectionId, name: s.name });
  return sectionsOf(tx, templateId);
}
