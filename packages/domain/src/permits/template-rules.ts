import { PERMIT_TEXT_FIELD_MAX, isFixedSection, type QuestionType, type SectionKind } from './model.js';
import type { QuestionInput } from './template.js';

/**
 * What a template question must hold for its type (the editor's checks, enforced by the server).
 * Problems are keyed by the question's own field (`options`, `attachment`…), values are i18n keys.
 */

/** Location pickers exist only as the fixed questions of the location section. */
const LOCATION_TYPES: readonly QuestionType[] = ['site', 'division', 'department', 'unit'];

export function questionProblems(q: QuestionInput, sectionKind: SectionKind): Record<string, string> {
  const out: Record<string, string> = {};
  if (LOCATION_TYPES.includes(q.type)) out['type'] = 'permits.validation.locationOnly';
  if (q.type === 'radio_button' && q.options.length < 2) out['options'] = 'permits.validation.options';
  if (q.type === 'attachment' && !q.attachment) out['attachment'] = 'validation.required';
  if (q.type === 'hidden_field' && !q.hidden_value) out['hidden_value'] = 'validation.required';
  if (q.max_length !== null && q.type === 'text_field' && q.max_length > PERMIT_TEXT_FIELD_MAX) out['max_length'] = 'validation.invalid';
  if (q.max_length !== null && q.type !== 'text_field' && q.type !== 'text_area') out['max_length'] = 'validation.invalid';
  if (q.condition && q.type === 'hidden_field') out['condition'] = 'validation.invalid';
  // A closure checklist is answered by whoever closes the permit: hidden fields have nothing to record there.
  if (sectionKind === 'closure' && q.type === 'hidden_field') out['type'] = 'permits.validation.typeNotHere';
  return out;
}

/**
 * A question as stored: the fields its type does not use are emptied, so that a radio's options do not
 * linger on a question changed into a text field.
 */
export function normalizeQuestion(q: QuestionInput): QuestionInput {
  const text = q.type === 'text_field' || q.type === 'text_area';
  return {
    ...q,
    max_length: text ? q.max_length : null,
    options: q.type === 'radio_button' ? q.options : [],
    attachment: q.type === 'attachment' ? q.attachment : null,
    hidden_value: q.type === 'hidden_field' ? q.hidden_value : null,
    required: q.type === 'hidden_field' ? false : q.required,
  };
}

/** Whether a section of this kind may be removed from its template. */
export function mayRemoveSection(kind: SectionKind): boolean {
  return !isFixedSection(kind);
}
