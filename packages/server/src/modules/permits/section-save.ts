import { randomUUID } from 'node:crypto';
import {
  normalizeQuestion,
  questionProblems,
  type PermitQuestion,
  type PermitSection,
  type PermitSectionSave,
  type QuestionInput,
} from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { insertSection, loadSection, releaseDependents, renumberSections, touchTemplate } from './sections.js';
import { loadTemplate, sectionsOf } from './template-read.js';
import { permitTemplateQuestions, permitTemplateSections } from './tables.js';

type Item = { q: QuestionInput; i: number; id: string; before: PermitQuestion | undefined };

/**
 * Checks a section's new question list against the rest of the template: ids belong to the section,
 * bound questions stay with their type, each question fits its type, conditions point at an earlier
 * radio question and one of its answers, and questions elsewhere shown on one of this section's
 * radio answers still find it. Returns field errors keyed `questions.<index>.<field>`.
 */
function problemsOf(all: PermitSection[], section: PermitSection | null, position: number, items: Item[], body: PermitSectionSave) {
  const fields: Record<string, string> = {};
  const kind = section?.kind ?? 'custom';
  const existing = new Map((section?.questions ?? []).map((q) => [q.id, q]));
  const seen = new Set<string>();
  body.questions.forEach((q, i) => {
    if (q.id && (!existing.has(q.id) || seen.has(q.id))) fields[`questions.${i}.id`] = 'validation.invalid';
    if (q.id) seen.add(q.id);
  });
  for (const bound of [...existing.values()].filter((q) => q.binding)) {
    const item = items.find((x) => x.id === bound.id);
    if (!item) fields['questions'] = 'permits.validation.fixedMissing';
    else if (item.q.type !== bound.type) fields[`questions.${item.i}.type`] = 'permits.validation.fixedQuestion';
  }
  for (const { q, i, before } of items) {
    if (before?.binding) continue;
    for (const [field, key] of Object.entries(questionProblems(q, kind))) fields[`questions.${i}.${field}`] = key;
  }
  // The form after the save, in order: where each question stands, and what it is.
  const order = new Map<string, number>();
  const shape = new Map<string, { type: string; options: string[] }>();
  const others = all.filter((s) => s.id !== section?.id);
  // This section stands where the save puts it (as renumberSections will).
  const sections: Array<PermitSection | null> = [...others];
  sections.splice(Math.min(Math.max(position - 1, 0), sections.length), 0, null);
  for (const s of sections) {
    const list = s
      ? s.questions.map((q) => ({ id: q.id, type: q.type as string, options: q.options }))
      : items.map((x) => ({ id: x.id, type: x.q.type as string, options: x.q.options }));
    for (const q of list) {
      order.set(q.id, order.size);
      shape.set(q.id, q);
    }
  }
  const keys = new Map(items.filter((x) => x.q.key).map((x) => [x.q.key!, x.id]));
  for (const { q, i, id } of items) {
    if (!q.condition) continue;
    const target = keys.get(q.condition.question) ?? q.condition.question;
    const t = shape.get(target);
    if (!t || t.type !== 'radio_button' || target === id || (order.get(target) ?? Infinity) > (order.get(id) ?? -1)) {
      fields[`questions.${i}.condition`] = 'permits.validation.conditionTarget';
    } else if (!t.options.includes(q.condition.answer)) fields[`questions.${i}.condition`] = 'permits.validation.conditionAnswer';
  }
  // Questions of other sections shown on an answer of a radio question kept here: it must still offer it.
  const kept = new Map(items.map((x) => [x.id, x]));
  for (const s of others)
    for (const q of s.questions) {
      const item = q.condition ? kept.get(q.condition.question_id) : undefined;
      if (item && (item.q.type !== 'radio_button' || !item.q.options.includes(q.condition!.answer)))
        fields[`questions.${item.i}.options`] = 'permits.validation.optionInUse';
    }
  return fields;
}

function columnsOf(q: QuestionInput, keys: Map<string, string>) {
  return {
    type: q.type,
    label: q.label,
    required: q.required,
    maxLength: q.max_length,
    options: q.options,
    fileKinds: q.attachment?.kinds ?? [],
    maxFiles: q.attachment?.max_files ?? null,
    maxFileKb: q.attachment?.max_file_kb ?? null,
    hiddenValue: q.hidden_value,
    helpText: q.help_text,
    conditionQuestionId: q.condition ? (keys.get(q.condition.question) ?? q.condition.question) : null,
    conditionAnswer: q.condition?.answer ?? null,
  };
}

/**
 * POST /api/permits/{id}/sections (a new custom section) and PATCH …/sections/{section_id}: the
 * section's name and its whole ordered question list. Questions left out (or `destroy`) go; their
 * reference images are released (swept as unlinked files).
 */
export async function saveSection(
  tx: Tx,
  deps: Pick<AppDeps, 'storage'>,
  actor: Principal,
  templateId: string,
  sectionId: string | null,
  body: PermitSectionSave,
): Promise<{ section: PermitSection; purge: Array<() => Promise<void>> }> {
  await loadTemplate(tx, templateId, true);
  if (sectionId) await loadSection(tx, templateId, sectionId);
  const all = await sectionsOf(tx, templateId);
  const section = sectionId ? all.find((s) => s.id === sectionId)! : null;
  const position = body.position ?? section?.position ?? all.length + 1;
  const existing = new Map((section?.questions ?? []).map((q) => [q.id, q]));
  const items: Item[] = body.questions
    .map((raw, i) => ({ raw, i }))
    .filter(({ raw }) => !raw.destroy)
    .map(({ raw, i }) => {
      const before = raw.id ? existing.get(raw.id) : undefined;
      // A bound question keeps its type and bindings; only its texts (and an area's "required") change.
      const q = before?.binding
        ? { ...raw, options: [], attachment: null, hidden_value: null, max_length: null, condition: null }
        : normalizeQuestion(raw);
      return { q, i, id: raw.id ?? randomUUID(), before };
    });
  const fields = problemsOf(all, section, position, items, body);
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });

  const id = sectionId ?? (await insertSection(tx, templateId, body.name, body.position));
  if (sectionId) {
    await tx
      .update(permitTemplateSections)
      .set({ name: body.name, ...(body.active !== undefined && !section?.fixed ? { active: body.active } : {}) })
      .where(eq(permitTemplateSections.id, id));
    if (body.position !== undefined) await renumberSections(tx, templateId, { id, position: body.position });
  }
  const keptIds = new Set(items.map((x) => x.id));
  const removed = [...existing.values()].filter((q) => !keptIds.has(q.id));
  await releaseDependents(
    tx,
    removed.map((q) => q.id),
  );
  const purge: Array<() => Promise<void>> = [];
  const release = async (fileId: string | undefined) => {
    const gone = fileId ? await deps.storage.remove(tx, fileId) : null;
    if (gone) purge.push(gone.purge);
  };
  for (const q of removed) {
    await tx.delete(permitTemplateQuestions).where(eq(permitTemplateQuestions.id, q.id));
    await release(q.reference_image?.id);
  }
  const keys = new Map(items.filter((x) => x.q.key).map((x) => [x.q.key!, x.id]));
  for (const [n, { q, id: qid, before }] of items.entries()) {
    const cols = { ...columnsOf(q, keys), position: n + 1 };
    if (before) {
      const dropImage = q.remove_reference_image && before.reference_image;
      await tx
        .update(permitTemplateQuestions)
        .set({ ...cols, ...(before.binding ? { type: before.type } : {}), ...(dropImage ? { referenceImageId: null } : {}) })
        .where(eq(permitTemplateQuestions.id, qid));
      if (dropImage) await release(before.reference_image!.id);
    } else {
      await tx.insert(permitTemplateQuestions).values({ id: qid, templateId, sectionId: id, ...cols });
    }
  }
  await touchTemplate(tx, actor, templateId, sectionId ? 'permit_section_saved' : 'permit_section_added', {
    section_id: id,
    name: body.name,
    questions: items.length,
    removed: removed.length,
  });
  return { section: (await sectionsOf(tx, templateId)).find((s) => s.id === id)!, purge };
}
