import { randomUUID } from 'node:crypto';
import { AUDIT_SECTIONS_MAX, type AuditNotify, type AuditQuestionInput, type AuditSectionSave } from '@bulwark/domain';
import { and, asc, count, eq, inArray, notInArray } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { activeMembers, refuse, TEMPLATE_ENTITY, type FieldErrors } from './common.js';
import { auditTemplateQuestions, auditTemplates, auditTemplateSections, type StoredOption } from './tables.js';
import { loadTemplate } from './templates.js';

/**
 * A template's sections ("form types") and their questions (issue 17; the permit templates' shape):
 * the section list alone (add, rename, move, switch off, remove), and a section saved whole with its
 * ordered questions, their options, conditions and notices.
 */

type QuestionRow = typeof auditTemplateQuestions.$inferSelect;

async function sectionOf(tx: Tx, templateId: string, sectionId: string) {
  const [s] = await tx
    .select()
    .from(auditTemplateSections)
    .where(and(eq(auditTemplateSections.id, sectionId), eq(auditTemplateSections.templateId, templateId)));
  if (!s) throw new AppError('not_found');
  return s;
}

/** Puts a section at a 1-based position (or keeps its place) and numbers every section 1..n again. */
async function placeSection(tx: Tx, templateId: string, sectionId: string, position: number | undefined) {
  const all = await tx
    .select({ id: auditTemplateSections.id })
    .from(auditTemplateSections)
    .where(eq(auditTemplateSections.templateId, templateId))
    .orderBy(asc(auditTemplateSections.position), asc(auditTemplateSections.createdAt));
  const ids = all.map((s) => s.id).filter((id) => id !== sectionId);
  const at = position === undefined ? all.findIndex((s) => s.id === sectionId) : position - 1;
  ids.splice(Math.max(0, Math.min(at < 0 ? ids.length : at, ids.length)), 0, sectionId);
  for (const [n, id] of ids.entries())
    await tx
      .update(auditTemplateSections)
      .set({ position: n + 1 })
      .where(eq(auditTemplateSections.id, id));
}

async function touch(tx: Tx, actor: Principal, templateId: string, action: string, changes: Record<string, unknown>) {
  await tx.update(auditTemplates).set({ updatedAt: new Date() }).where(eq(auditTemplates.id, templateId));
  await recordAudit(tx, { actorUserId: actor.userId, action, entity: TEMPLATE_ENTITY, entityId: templateId, changes });
}

async function checkSectionRoom(tx: Tx, templateId: string) {
  const [row] = await tx.select({ n: count() }).from(auditTemplateSections).where(eq(auditTemplateSections.templateId, templateId));
  if (row!.n >= AUDIT_SECTIONS_MAX) throw new AppError('conflict', { messageKey: 'audits.validation.tooManySections' });
}

/** POST /api/audits/{id}/form_types: an empty section. */
export async function addFormType(tx: Tx, actor: Principal, templateId: string, body: { name: string; position?: number | undefined }) {
  await loadTemplate(tx, templateId, true);
  await checkSectionRoom(tx, templateId);
  const [s] = await tx.insert(auditTemplateSections).values({ templateId, name: body.name, position: 1000 }).returning();
  await placeSection(tx, templateId, s!.id, body.position);
  await touch(tx, actor, templateId, 'audit_section_added', { section_id: s!.id, name: body.name });
  return s!.id;
}

/** PATCH /api/audits/{id}/form_types/{form_type_id}: rename, move or switch. */
export async function updateFormType(
  tx: Tx,
  actor: Principal,
  templateId: string,
  sectionId: string,
  body: { name?: string | undefined; position?: number | undefined; active?: boolean | undefined },
) {
  await loadTemplate(tx, templateId, true);
  const s = await sectionOf(tx, templateId, sectionId);
  await tx
    .update(auditTemplateSections)
    .set({ name: body.name ?? s.name, active: body.active ?? s.active })
    .where(eq(auditTemplateSections.id, sectionId));
  if (body.position !== undefined) await placeSection(tx, templateId, sectionId, body.position);
  await touch(tx, actor, templateId, 'audit_section_updated', { section_id: sectionId, ...body });
}

/** Refuses when a question outside `leaving` depends on one of them (a child would lose its parent). */
async function refuseOrphans(tx: Tx, templateId: string, leaving: string[]) {
  if (leaving.length === 0) return;
  const [child] = await tx
    .select({ id: auditTemplateQuestions.id })
    .from(auditTemplateQuestions)
    .where(
      and(
        eq(auditTemplateQuestions.templateId, templateId),
        inArray(auditTemplateQuestions.parentQuestionId, leaving),
        notInArray(auditTemplateQuestions.id, leaving),
      ),
    )
    .limit(1);
  if (child) throw new AppError('conflict', { messageKey: 'audits.validation.parentInUse' });
}

/** DELETE …/form_types/{id} and …/sections/{id}: the section and its questions. */
export async function removeSection(tx: Tx, actor: Principal, templateId: string, sectionId: string) {
  await loadTemplate(tx, templateId, true);
  await sectionOf(tx, templateId, sectionId);
  const inside = await tx
    .select({ id: auditTemplateQuestions.id })
    .from(auditTemplateQuestions)
    .where(eq(auditTemplateQuestions.sectionId, sectionId));
  await refuseOrphans(
    tx,
    templateId,
    inside.map((q) => q.id),
  );
  await tx
    .update(auditTemplateQuestions)
    .set({ parentQuestionId: null, parentOptionKey: null })
    .where(eq(auditTemplateQuestions.sectionId, sectionId));
  await tx.delete(auditTemplateSections).where(eq(auditTemplateSections.id, sectionId));
  await renumber(tx, templateId);
  await touch(tx, actor, templateId, 'audit_section_removed', { section_id: sectionId });
}

async function renumber(tx: Tx, templateId: string) {
  const all = await tx
    .select({ id: auditTemplateSections.id })
    .from(auditTemplateSections)
    .where(eq(auditTemplateSections.templateId, templateId))
    .orderBy(asc(auditTemplateSections.position), asc(auditTemplateSections.createdAt));
  for (const [n, s] of all.entries())
    await tx
      .update(auditTemplateSections)
      .set({ position: n + 1 })
      .where(eq(auditTemplateSections.id, s.id));
}

/** The options after the save: kept keys stay, a label that existed keeps its key, new ones get one. */
function optionsOf(input: AuditQuestionInput, before: QuestionRow | undefined): StoredOption[] {
  return input.options.map((o) => {
    const kept = before?.options.find((b) => (o.key ? b.key === o.key : b.label.toLowerCase() === o.label.toLowerCase()));
    return { key: kept?.key ?? o.key ?? randomUUID(), label: o.label, score: o.score, failure: o.failure };
  });
}

/** An option named by key or label (or yes, no, na) of a question, as its key; null when it has none. */
function optionKey(q: { type: string; allowNa: boolean; options: StoredOption[] }, named: string): string | null {
  if (q.type === 'yes_no') return ['yes', 'no', 'na'].includes(named.toLowerCase()) ? named.toLowerCase() : null;
  if (q.type !== 'choice') return null;
  if (named.toLowerCase() === 'na' && q.allowNa) return 'na';
  return q.options.find((o) => o.key === named || o.label.toLowerCase() === named.toLowerCase())?.key ?? null;
}

/**
 * POST /api/audits/{id}/sections (new: sectionId null) and PATCH …/sections/{section_id}: the section's
 * name, place and switch, and its questions in order. A question named by id keeps its answers' meaning
 * (it may come from another section of the template); one left out is removed unless a child needs it.
 */
export async function saveSection(
  tx: Tx,
  actor: Principal,
  templateId: string,
  sectionId: string | null,
  body: AuditSectionSave,
): Promise<string> {
  await loadTemplate(tx, templateId, true);
  let id = sectionId;
  if (id) {
    await sectionOf(tx, templateId, id);
    await tx
      .update(auditTemplateSections)
      .set({ name: body.name, ...(body.active !== undefined ? { active: body.active } : {}) })
      .where(eq(auditTemplateSections.id, id));
  } else {
    await checkSectionRoom(tx, templateId);
    const [s] = await tx
      .insert(auditTemplateSections)
      .values({ templateId, name: body.name, position: 1000, active: body.active ?? true })
      .returning();
    id = s!.id;
  }
  await placeSection(tx, templateId, id, body.position ?? (sectionId ? undefined : 1000));

  const existing = await tx.select().from(auditTemplateQuestions).where(eq(auditTemplateQuestions.templateId, templateId));
  const byId = new Map(existing.map((q) => [q.id, q]));
  const fields: FieldErrors = {};
  body.questions.forEach((q, n) => {
    if (q.id && !byId.has(q.id)) fields[`questions.${n}.id`] = 'validation.invalid';
  });
  const keys = body.questions.map((q) => q.key).filter((k): k is string => !!k);
  if (new Set(keys).size !== keys.length) fields['questions'] = 'validation.invalid';
  refuse(fields);

  const keptIds = new Set(body.questions.map((q) => q.id).filter((x): x is string => !!x));
  const leaving = existing.filter((q) => q.sectionId === id && !keptIds.has(q.id)).map((q) => q.id);
  await refuseOrphans(tx, templateId, leaving);

  // Write every question without its condition first, so that conditions may name questions new in this save.
  const saved: Array<{ id: string; input: AuditQuestionInput; options: StoredOption[] }> = [];
  for (const [n, q] of body.questions.entries()) {
    const options = optionsOf(q, q.id ? byId.get(q.id) : undefined);
    const values = {
      templateId,
      sectionId: id,
      position: n + 1,
      type: q.type,
      label: q.label,
      description: q.description,
      required: q.required,
      critical: q.critical,
      score: q.type === 'choice' ? 0 : q.score,
      expected: q.expected,
      allowNa: q.allow_na,
      multiple: q.multiple,
      options,
      addOptions: q.add_options,
      minValue: q.min,
      maxValue: q.max,
      attachments: q.attachments,
      rowHeaders: q.row_headers,
      parentQuestionId: null,
      parentOptionKey: null,
      notify: null,
      updatedAt: new Date(),
    };
    if (q.id) {
      await tx.update(auditTemplateQuestions).set(values).where(eq(auditTemplateQuestions.id, q.id));
      saved.push({ id: q.id, input: q, options });
    } else {
      const [row] = await tx.insert(auditTemplateQuestions).values(values).returning({ id: auditTemplateQuestions.id });
      saved.push({ id: row!.id, input: q, options });
    }
  }
  if (leaving.length) {
    await tx
      .update(auditTemplateQuestions)
      .set({ parentQuestionId: null, parentOptionKey: null })
      .where(inArray(auditTemplateQuestions.id, leaving));
    await tx.delete(auditTemplateQuestions).where(inArray(auditTemplateQuestions.id, leaving));
  }
  await linkConditions(tx, templateId, saved);
  await touch(tx, actor, templateId, sectionId ? 'audit_section_saved' : 'audit_section_added', {
    section_id: id,
    name: body.name,
    questions: saved.length,
  });
  return id;
}

/** Resolves each saved question's condition and notice, then checks that parents come earlier in the form. */
async function linkConditions(
  tx: Tx,
  templateId: string,
  saved: Array<{ id: string; input: AuditQuestionInput; options: StoredOption[] }>,
) {
  const all = await tx
    .select({ q: auditTemplateQuestions, sectionPosition: auditTemplateSections.position })
    .from(auditTemplateQuestions)
    .innerJoin(auditTemplateSections, eq(auditTemplateSections.id, auditTemplateQuestions.sectionId))
    .where(eq(auditTemplateQuestions.templateId, templateId))
    .orderBy(asc(auditTemplateSections.position), asc(auditTemplateQuestions.position));
  const order = new Map(all.map((r, n) => [r.q.id, n]));
  const rows = new Map(all.map((r) => [r.q.id, r.q]));
  const byKey = new Map(saved.filter((s) => s.input.key).map((s) => [s.input.key!, s.id]));
  const fields: FieldErrors = {};
  const people = await activeMembers(
    tx,
    saved.flatMap((s) => s.input.notify?.user_ids ?? []),
  );
  for (const [n, s] of saved.entries()) {
    let parentId: string | null = null;
    let parentKey: string | null = null;
    const c = s.input.condition;
    if (c) {
      const pid = byKey.get(c.question) ?? (rows.has(c.question) ? c.question : null);
      const parent = pid ? rows.get(pid) : undefined;
      if (!parent || pid === s.id || (order.get(pid!) ?? 0) >= (order.get(s.id) ?? 0))
        fields[`questions.${n}.condition`] = 'audits.validation.parentUnknown';
      else if (parent.type !== 'yes_no' && parent.type !== 'choice') fields[`questions.${n}.condition`] = 'audits.validation.parentType';
      else {
        parentKey = optionKey(parent, c.option);
        if (!parentKey) fields[`questions.${n}.condition`] = 'audits.validation.parentOption';
        else parentId = parent.id;
      }
    }
    let notify: AuditNotify | null = null;
    const w = s.input.notify;
    if (w) {
      const optionKeys = w.options.map((o) => optionKey({ type: s.input.type, allowNa: s.input.allow_na, options: s.options }, o));
      if (w.when === 'options' && optionKeys.some((k) => k === null)) fields[`questions.${n}.notify`] = 'audits.validation.notifyOptions';
      if (w.user_ids.some((u) => !people.has(u))) fields[`questions.${n}.notify`] = 'audits.validation.userUnknown';
      notify = {
        when: w.when,
        option_keys: w.when === 'options' ? optionKeys.filter((k): k is string => !!k) : [],
        user_ids: w.user_ids,
        roles: w.roles,
      };
    }
    if ((parentId && parentKey) || notify)
      await tx
        .update(auditTemplateQuestions)
        .set({ parentQuestionId: parentId, parentOptionKey: parentKey, notify })
        .where(eq(auditTemplateQuestions.id, s.id));
  }
  // A question kept as a parent must still offer the option its children wait for (its type or options may have changed).
  for (const r of all) {
    if (!r.q.parentQuestionId || saved.some((x) => x.id === r.q.id)) continue;
    const parent = rows.get(r.q.parentQuestionId);
    if (!parent || optionKey(parent, r.q.parentOptionKey!) === null)
      throw new AppError('conflict', { messageKey: 'audits.validation.parentInUse' });
  }
  refuse(fields);
}
