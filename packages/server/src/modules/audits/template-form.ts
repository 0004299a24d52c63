import { auditChoiceMaxScore, type AuditForm, type AuditQuestion, type AuditSection } from '@bulwark/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { auditTemplateQuestions, auditTemplates, auditTemplateSections } from './tables.js';

type QuestionRow = typeof auditTemplateQuestions.$inferSelect;

/** A stored question as the domain's form shows it. */
export function questionOf(r: QuestionRow): AuditQuestion {
  const options = r.options.map((o) => ({ ...o, added: false }));
  const base = {
    id: r.id,
    section_id: r.sectionId,
    position: r.position,
    type: r.type,
    label: r.label,
    description: r.description,
    required: r.required,
    critical: r.critical,
    score: r.score,
    expected: r.expected,
    allow_na: r.allowNa,
    multiple: r.multiple,
    options,
    add_options: r.addOptions,
    min: r.minValue,
    max: r.maxValue,
    attachments: r.attachments,
    row_headers: r.rowHeaders,
    condition: r.parentQuestionId && r.parentOptionKey ? { question_id: r.parentQuestionId, option_key: r.parentOptionKey } : null,
    notify: r.notify,
  };
  return r.type === 'choice' ? { ...base, score: auditChoiceMaxScore(base) } : base;
}

/** The template's sections with their ordered questions; `activeOnly` leaves switched-off sections out. */
export async function templateSections(tx: Tx, templateId: string, activeOnly = false): Promise<AuditSection[]> {
  const sections = await tx
    .select()
    .from(auditTemplateSections)
    .where(and(eq(auditTemplateSections.templateId, templateId), activeOnly ? eq(auditTemplateSections.active, true) : undefined))
    .orderBy(asc(auditTemplateSections.position), asc(auditTemplateSections.createdAt));
  const questions = sections.length
    ? await tx
        .select()
        .from(auditTemplateQuestions)
        .where(
          inArray(
            auditTemplateQuestions.sectionId,
            sections.map((s) => s.id),
          ),
        )
        .orderBy(asc(auditTemplateQuestions.position))
    : [];
  return sections.map((s) => ({
    id: s.id,
    name: s.name,
    position: s.position,
    active: s.active,
    questions: questions.filter((q) => q.sectionId === s.id).map(questionOf),
  }));
}

/**
 * The form an audit of this template runs now: its active sections. A child question whose parent sits
 * in a switched-off section could never show, so it is left out with it.
 */
export async function currentForm(tx: Tx, templateId: string): Promise<AuditForm> {
  const [t] = await tx
    .select({ scoring: auditTemplates.scoring, declaration: auditTemplates.declaration })
    .from(auditTemplates)
    .where(eq(auditTemplates.id, templateId));
  if (!t) throw new AppError('not_found');
  const sections = await templateSections(tx, templateId, true);
  const present = new Set(sections.flatMap((s) => s.questions.map((q) => q.id)));
  const reachable = new Set<string>();
  for (const q of sections.flatMap((s) => s.questions)) if (!q.condition || reachable.has(q.condition.question_id)) reachable.add(q.id);
  return {
    scoring: t.scoring,
    declaration: t.declaration,
    sections: sections.map((s) => ({ ...s, questions: s.questions.filter((q) => present.has(q.id) && reachable.has(q.id)) })),
  };
}
