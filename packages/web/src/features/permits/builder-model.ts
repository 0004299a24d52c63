import type { AttachmentKind, PermitQuestion, PermitSection, QuestionInputRaw, QuestionType } from '@bulwark/domain';

/**
 * The template builder's pure rules: moving an item in a list (by drag or by the move buttons), a
 * saved question as the section save sends it back, and which radio questions a condition may point at.
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

/** A question as the editor holds it: a saved question has an `id`, a new one a `key`. */
export type QuestionDraft = {
  id?: string;
  key?: string;
  type: QuestionType;
  label: string;
  required: boolean;
  max_length: number | null;
  options: string[];
  attachment: { kinds: AttachmentKind[]; max_files: number; max_file_kb: number } | null;
  hidden_value: string | null;
  help_text: string | null;
  /** The radio question (id) and the answer that shows this one. */
  condition: { question: string; answer: string } | null;
  /** Shown in the editor; not sent. */
  reference_image?: PermitQuestion['reference_image'];
  fixed?: boolean;
};

export function draftOf(q: PermitQuestion): QuestionDraft {
  return {
    id: q.id,
    type: q.type,
    label: q.label,
    required: q.required,
    max_length: q.max_length,
    options: [...q.options],
    attachment: q.attachment ? { ...q.attachment, kinds: [...q.attachment.kinds] } : null,
    hidden_value: q.hidden_value,
    help_text: q.help_text,
    condition: q.condition ? { question: q.condition.question_id, answer: q.condition.answer } : null,
    reference_image: q.reference_image,
    fixed: q.fixed,
  };
}

let counter = 0;
/** A new question of a type, with what that type needs to be valid filled in where a default makes sense. */
export function newDraft(type: QuestionType): QuestionDraft {
  counter += 1;
  return {
    key: `new-${Date.now().toString(36)}-${counter}`,
    type,
    label: '',
    required: false,
    max_length: null,
    options: type === 'radio_button' ? ['', ''] : [],
    attachment: type === 'attachment' ? { kinds: ['image', 'pdf'], max_files: 5, max_file_kb: 10 * 1024 } : null,
    hidden_value: null,
    help_text: null,
    condition: null,
  };
}

/** The question as a section save sends it (the fields the type does not use are left for the server to empty). */
export function toInput(d: QuestionDraft): QuestionInputRaw {
  const out: QuestionInputRaw = {
    type: d.type,
    label: d.label,
    required: d.type === 'hidden_field' ? false : d.required,
    max_length: d.type === 'text_field' || d.type === 'text_area' ? d.max_length : null,
    options: d.type === 'radio_button' ? d.options.map((o) => o.trim()).filter((o) => o !== '') : [],
    attachment: d.type === 'attachment' ? d.attachment : null,
    hidden_value: d.type === 'hidden_field' ? d.hidden_value : null,
    help_text: d.help_text,
    condition: d.condition,
  };
  if (d.id) out.id = d.id;
  else if (d.key) out.key = d.key;
  return out;
}

export type ConditionSource = { id: string; label: string; options: string[]; section: string };

/**
 * The radio questions a question may depend on: saved radio questions that come before it in the
 * form (earlier sections, or earlier in its own section), excluding itself.
 */
export function conditionSources(sections: readonly PermitSection[], sectionId: string, before: number): ConditionSource[] {
  const out: ConditionSource[] = [];
  for (const s of sections) {
    const own = s.id === sectionId;
    const questions = own ? s.questions.slice(0, before) : s.questions;
    for (const q of questions)
      if (q.type === 'radio_button' && q.options.length >= 2) out.push({ id: q.id, label: q.label, options: q.options, section: s.name });
    if (own) break;
  }
  return out;
}

/** The questions of a section shown as condition targets by label (for the builder's "shown when" line). */
export function questionLabel(sections: readonly PermitSection[], id: string): string | null {
  for (const s of sections) for (const q of s.questions) if (q.id === id) return q.label;
  return null;
}
