import {
  isFixedSection,
  type PermitQuestion,
  type PermitSection,
  type PermitTemplateDetail,
  type PermitTemplateSummary,
} from '@bulwark/domain';
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { files } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { searchPattern } from '../../platform/http/list.js';
import { permitTemplateConflicts, permitTemplateQuestions, permitTemplateSections, permitTemplates, permits } from './tables.js';

export type TemplateRow = typeof permitTemplates.$inferSelect;
export type QuestionRow = typeof permitTemplateQuestions.$inferSelect;

/** One template of the organisation (locked for a write), or "not found". */
export async function loadTemplate(tx: Tx, id: string, forUpdate = false): Promise<TemplateRow> {
  const q = tx.select().from(permitTemplates).where(eq(permitTemplates.id, id));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw new AppError('not_found');
  return row;
}

export function questionOf(q: QuestionRow, image: { id: string; file_name: string } | null): PermitQuestion {
  return {
    id: q.id,
    section_id: q.sectionId,
    position: q.position,
    type: q.type,
    label: q.label,
    required: q.required,
    max_length: q.maxLength,
    options: q.options,
    attachment: q.type === 'attachment' ? { kinds: q.fileKinds, max_files: q.maxFiles ?? 1, max_file_kb: q.maxFileKb ?? 10240 } : null,
    hidden_value: q.hiddenValue,
    help_text: q.helpText,
    reference_image: image,
    condition: q.conditionQuestionId && q.conditionAnswer ? { question_id: q.conditionQuestionId, answer: q.conditionAnswer } : null,
    binding: q.binding,
    fixed: q.binding !== null,
  };
}

/** The template's sections in order, each with its questions in order; `activeOnly` for the request form. */
export async function sectionsOf(tx: Tx, templateId: string, activeOnly = false): Promise<PermitSection[]> {
  const sections = await tx
    .select()
    .from(permitTemplateSections)
    .where(and(eq(permitTemplateSections.templateId, templateId), activeOnly ? eq(permitTemplateSections.active, true) : undefined))
    .orderBy(asc(permitTemplateSections.position), asc(permitTemplateSections.createdAt));
  const questions = await tx
    .select({ q: permitTemplateQuestions, fileName: files.fileName })
    .from(permitTemplateQuestions)
    .leftJoin(files, eq(files.id, permitTemplateQuestions.referenceImageId))
    .where(eq(permitTemplateQuestions.templateId, templateId))
    .orderBy(asc(permitTemplateQuestions.position), asc(permitTemplateQuestions.createdAt));
  return sections.map((s) => ({
    id: s.id,
    name: s.name,
    kind: s.kind,
    position: s.position,
    fixed: isFixedSection(s.kind),
    active: s.active,
    questions: questions
      .filter(({ q }) => q.sectionId === s.id)
      .map(({ q, fileName }) => questionOf(q, q.referenceImageId ? { id: q.referenceImageId, file_name: fileName ?? '' } : null)),
  }));
}

/** Both directions of each conflicting pair, by template. */
async function conflictsOf(tx: Tx, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (ids.length === 0) return out;
  const rows = await tx
    .select()
    .from(permitTemplateConflicts)
    .where(or(inArray(permitTemplateConflicts.templateA, ids), inArray(permitTemplateConflicts.templateB, ids)));
  const add = (k: string, v: string) => out.set(k, [...new Set([...(out.get(k) ?? []), v])]);
  for (const r of rows) {
    add(r.templateA, r.templateB);
    add(r.templateB, r.templateA);
  }
  return out;
}

/** Rows per template of a table holding a template_id. */
async function countPer(tx: Tx, ids: string[], table: typeof permits | typeof permitTemplateSections | typeof permitTemplateQuestions) {
  if (ids.length === 0) return new Map<string, number>();
  const rows = await tx
    .select({ id: table.templateId, n: count() })
    .from(table)
    .where(inArray(table.templateId, ids))
    .groupBy(table.templateId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** Templates as the list shows them, with counts and conflicting types. */
export async function templateSummaries(tx: Tx, filter: { search?: string | undefined; enabled?: boolean | undefined; ids?: string[] }) {
  const conds: Array<SQL | undefined> = [];
  if (filter.search) {
    const p = searchPattern(filter.search);
    conds.push(or(ilike(permitTemplates.name, p), ilike(permitTemplates.prefix, p)));
  }
  if (filter.enabled !== undefined) conds.push(eq(permitTemplates.enabled, filter.enabled));
  if (filter.ids) conds.push(inArray(permitTemplates.id, filter.ids));
  const rows = await tx
    .select()
    .from(permitTemplates)
    .where(and(...conds))
    .orderBy(asc(sql`lower(${permitTemplates.name})`), asc(permitTemplates.id));
  const ids = rows.map((r) => r.id);
  const conflicts = await conflictsOf(tx, ids);
  const sectionCounts = await countPer(tx, ids, permitTemplateSections);
  const questionCounts = await countPer(tx, ids, permitTemplateQuestions);
  const permitCounts = await countPer(tx, ids, permits);
  return rows.map((t): PermitTemplateSummary => ({
    id: t.id,
    name: t.name,
    description: t.description,
    prefix: t.prefix,
    default_hours: t.defaultHours,
    extension_hours: t.extensionHours,
    extension_declaration: t.extensionDeclaration,
    enabled: t.enabled,
    conflict_template_ids: (conflicts.get(t.id) ?? []).sort(),
    sections_count: sectionCounts.get(t.id) ?? 0,
    questions_count: questionCounts.get(t.id) ?? 0,
    permits_count: permitCounts.get(t.id) ?? 0,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  }));
}

export async function templateDetail(tx: Tx, id: string): Promise<PermitTemplateDetail> {
  const [summary] = await templateSummaries(tx, { ids: [id] });
  if (!summary) throw new AppError('not_found');
  return { ...summary, sections: await sectionsOf(tx, id) };
}
