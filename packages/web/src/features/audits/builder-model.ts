import type {
  AuditForm,
  AuditNotifyRole,
  AuditNotifyWhen,
  AuditQuestion,
  AuditQuestionInputRaw,
  AuditResponseType,
  AuditSection,
  AuditTemplateDetail,
} from '@bulwark/domain';

/**
 * The audit template builder's pure rules: moving an item (drag or buttons), a question as the editor
 * holds it and as the section save sends it, which questions a child may depend on, and the template
 * as the live preview runs it.
 */

/** The list with the item at `from` moved to `to` (both 0-based, clamped); the same list when nothing moves. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, to));
  if (from < 0 || from >= list.length || from === target) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item!);
  return next;
}

export type OptionDraft = { key?: string; label: string; score: number; failure: boolean };

/** A question as the editor holds it: a saved question has an `id`, a new one a `key`. */
export type QuestionDraft = {
  id?: string;
  key?: string;
  type: AuditResponseType;
  label: string;
  description: string | null;
  required: boolean;
  critical: boolean;
  score: number;
  expected: 'yes' | 'no';
  allow_na: boolean;
  multiple: boolean;
  options: OptionDraft[];
  add_options: boolean;
  min: number | null;
  max: number | null;
  attachments: boolean;
  row_headers: string[];
  /** The parent question (id) and its option key (yes, no, na or an option's key). */
  condition: { question: string; option: string } | null;
  notify: { when: AuditNotifyWhen; options: string[]; user_ids: string[]; roles: AuditNotifyRole[] } | null;
};

export function draftOf(q: AuditQuestion): QuestionDraft {
  return {
    id: q.id,
    type: q.type,
    label: q.label,
    description: q.description,
    required: q.required,
    critical: q.critical,
    score: q.type === 'choice' ? 0 : q.score,
    expected: q.expected ?? 'yes',
    allow_na: q.allow_na,
    multiple: q.multiple,
    options: q.options.filter((o) => !o.added).map((o) => ({ key: o.key, label: o.label, score: o.score, failure: o.failure })),
    add_options: q.add_options,
    min: q.min,
    max: q.max,
    attachments: q.attachments,
    row_headers: [...q.row_headers],
    condition: q.condition ? { question: q.condition.question_id, option: q.condition.option_key } : null,
    notify: q.notify
      ? { when: q.notify.when, options: [...q.notify.option_keys], user_ids: [...q.notify.user_ids], roles: [...q.notify.roles] }
      : null,
  };
}

let counter = 0;
/** A new question of a type, with what that type needs to be valid filled in where a default makes sense. */
export function newDraft(type: AuditResponseType): QuestionDraft {
  counter += 1;
  return {
    key: `new-${Date.now().toString(36)}-${counter}`,
    type,
    label: '',
    description: null,
    required: true,
    critical: false,
    score: type === 'yes_no' ? 1 : 0,
    expected: 'yes',
    allow_na: type === 'yes_no',
    multiple: false,
    options: type === 'choice' ? [blankOption(), blankOption()] : [],
    add_options: false,
    min: null,
    max: null,
    attachments: false,
    row_headers: [],
    condition: null,
    notify: null,
  };
}

export const blankOption = (): OptionDraft => ({ label: '', score: 0, failure: false });

/** Whether a type can earn points in this draft (the server refuses a score it would not use). */
export function scoresItself(d: Pick<QuestionDraft, 'type' | 'min' | 'max'>): boolean {
  return d.type === 'yes_no' || (d.type === 'number' && (d.min !== null || d.max !== null));
}

/** Whether a question of this draft can fail (and so be critical). */
export function canFail(d: Pick<QuestionDraft, 'type'>): boolean {
  return d.type === 'yes_no' || d.type === 'choice' || d.type === 'number';
}

/** The question as a section save sends it: what its type does not use is emptied. */
export function toInput(d: QuestionDraft): AuditQuestionInputRaw {
  const choice = d.type === 'choice';
  const out: AuditQuestionInputRaw = {
    type: d.type,
    label: d.label,
    description: d.description?.trim() ? d.description : null,
    required: d.required,
    critical: canFail(d) ? d.critical : false,
    score: scoresItself(d) ? d.score : 0,
    expected: d.type === 'yes_no' ? d.expected : null,
    allow_na: d.allow_na,
    multiple: choice ? d.multiple : false,
    options: choice
      ? d.options
          .filter((o) => o.label.trim() !== '')
          .map((o) => ({ ...(o.key ? { key: o.key } : {}), label: o.label.trim(), score: o.score, failure: o.failure }))
      : [],
    add_options: choice ? d.add_options : false,
    min: d.type === 'number' ? d.min : null,
    max: d.type === 'number' ? d.max : null,
    attachments: d.attachments,
    row_headers: d.row_headers.map((r) => r.trim()).filter((r) => r !== ''),
    condition: d.condition,
    notify: d.notify
      ? {
          when: d.notify.when,
          options: d.notify.when === 'options' ? d.notify.options : [],
          user_ids: d.notify.user_ids,
          roles: d.notify.roles,
        }
      : null,
  };
  if (d.id) out.id = d.id;
  else if (d.key) out.key = d.key;
  return out;
}

export type ParentOption = { key: string; label: string };
export type ConditionSource = { id: string; label: string; section: string; options: ParentOption[] };

/** The options a question can be answered with, as conditions and notices name them. */
export function optionsOf(
  q: Pick<AuditQuestion, 'type' | 'options' | 'allow_na'>,
  words: { yes: string; no: string; na: string },
): ParentOption[] {
  if (q.type === 'yes_no')
    return [{ key: 'yes', label: words.yes }, { key: 'no', label: words.no }, ...(q.allow_na ? [{ key: 'na', label: words.na }] : [])];
  if (q.type === 'choice')
    return [...q.options.map((o) => ({ key: o.key, label: o.label })), ...(q.allow_na ? [{ key: 'na', label: words.na }] : [])];
  return [];
}

/**
 * The questions a question may depend on (its parent): saved yes/no and options questions that come
 * before it in the form (earlier sections, or earlier in its own section).
 */
export function conditionSources(
  sections: readonly AuditSection[],
  sectionId: string,
  before: number,
  words: { yes: string; no: string; na: string },
): ConditionSource[] {
  const out: ConditionSource[] = [];
  for (const s of [...sections].sort((a, b) => a.position - b.position)) {
    const own = s.id === sectionId;
    const questions = own ? s.questions.slice(0, before) : s.questions;
    for (const q of questions)
      if (q.type === 'yes_no' || q.type === 'choice') out.push({ id: q.id, label: q.label, section: s.name, options: optionsOf(q, words) });
    if (own) break;
  }
  return out;
}

/** A question's label anywhere in the template. */
export function questionById(sections: readonly AuditSection[], id: string): AuditQuestion | null {
  for (const s of sections) for (const q of s.questions) if (q.id === id) return q;
  return null;
}

/** The template as an audit of it would run now: its switched-on sections, in order. */
export function previewForm(template: Pick<AuditTemplateDetail, 'scoring' | 'declaration' | 'sections'>): AuditForm {
  return {
    scoring: template.scoring,
    declaration: template.declaration,
    sections: [...template.sections].filter((s) => s.active).sort((a, b) => a.position - b.position),
  };
}
