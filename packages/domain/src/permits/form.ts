import { isCalendarDate } from '../incidents/inputs.js';
import {
  PERMIT_MASTER_PICKS_MAX,
  PERMIT_TEXT_AREA_MAX,
  PERMIT_TEXT_FIELD_MAX,
  isMasterQuestion,
  type QuestionType,
  type SectionKind,
} from './model.js';
import type { PermitQuestion } from './template.js';

/**
 * The rules of a permit form, shared by the server (which enforces them) and the web (which shows the
 * same answers as it goes): which questions a set of answers shows (conditional questions), and
 * whether each answer fits its question. Field texts are i18n keys; errors are keyed `answers.<id>`.
 */

export type FormQuestion = Pick<
  PermitQuestion,
  'id' | 'type' | 'required' | 'max_length' | 'options' | 'attachment' | 'hidden_value' | 'condition' | 'binding'
>;
export type FormSection = { id: string; kind: SectionKind; active: boolean; questions: readonly FormQuestion[] };
/** A sent answer: text (text, radio, date 'YYYY-MM-DD', time 'HH:mm'), or ids (attachments, master entries). */
export type AnswerInput = string | readonly string[] | null | undefined;
export type Answers = Record<string, AnswerInput>;

/** The text cap of a text question: its own max length within the type's cap. */
export function textCap(q: Pick<FormQuestion, 'type' | 'max_length'>): number {
  const cap = q.type === 'text_area' ? PERMIT_TEXT_AREA_MAX : PERMIT_TEXT_FIELD_MAX;
  return q.max_length ? Math.min(q.max_length, cap) : cap;
}

/** Whether a question of this type is answered with ids (files, master entries) rather than text. */
export function takesIds(type: QuestionType): boolean {
  return type === 'attachment' || isMasterQuestion(type);
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isBlank(v: AnswerInput): boolean {
  if (v === null || v === undefined) return true;
  return typeof v === 'string' ? v.trim() === '' : v.length === 0;
}

/**
 * The questions these answers show, in form order: active sections, and a conditional question only
 * when its radio question is itself shown and answered with the condition's answer.
 */
export function visibleQuestionIds(sections: readonly FormSection[], answers: Answers): Set<string> {
  const shown = new Set<string>();
  for (const s of sections) {
    if (!s.active) continue;
    for (const q of s.questions) {
      const c = q.condition;
      if (c && !(shown.has(c.question_id) && answers[c.question_id] === c.answer)) continue;
      shown.add(q.id);
    }
  }
  return shown;
}

/** Which sections a phase answers: the request answers everything but the closure checklist, closing only that. */
export type FormPhase = 'request' | 'closure';
const inPhase = (s: FormSection, phase: FormPhase) => (phase === 'closure' ? s.kind === 'closure' : s.kind !== 'closure');

/** The problem with one answer (an i18n key), or null. `complete`: required answers must be there. */
export function answerProblem(q: FormQuestion, value: AnswerInput, complete: boolean): string | null {
  if (isBlank(value)) return complete && q.required ? 'validation.required' : null;
  if (takesIds(q.type)) {
    if (!Array.isArray(value) || !value.every((id) => typeof id === 'string' && UUID.test(id))) return 'validation.invalid';
    if (new Set(value).size !== value.length) return 'validation.invalid';
    const max = q.type === 'attachment' ? (q.attachment?.max_files ?? 1) : PERMIT_MASTER_PICKS_MAX;
    return value.length > max ? 'permits.validation.tooManyFiles' : null;
  }
  if (typeof value !== 'string') return 'validation.invalid';
  const text = value.trim();
  switch (q.type) {
    case 'text_field':
    case 'text_area':
      return text.length > textCap(q) ? 'validation.tooLong' : null;
    case 'radio_button':
      return q.options.includes(text) ? null : 'permits.validation.option';
    case 'date_only':
      return isCalendarDate(text) ? null : 'validation.invalid';
    case 'time':
      return TIME.test(text) ? null : 'validation.invalid';
    default:
      return 'validation.invalid';
  }
}

/**
 * Checks the answers of one phase against the form: the shown, unbound questions of the phase's
 * sections. Hidden fields take their template value; answers to questions the form does not show are
 * dropped (a condition no longer met); an answer to a question the form does not have is refused.
 * `others` are the answers of the other phase, which conditions may look at (closing sees the request).
 */
export function checkAnswers(
  sections: readonly FormSection[],
  answers: Answers,
  opts: { phase: FormPhase; complete: boolean; others?: Answers },
): { values: Record<string, string | string[]>; errors: Record<string, string> } {
  const all = { ...(opts.others ?? {}), ...answers };
  const shown = visibleQuestionIds(sections, all);
  const known = new Set<string>();
  const values: Record<string, string | string[]> = {};
  const errors: Record<string, string> = {};
  for (const s of sections) {
    if (!inPhase(s, opts.phase)) continue;
    for (const q of s.questions) {
      if (q.binding) continue;
      known.add(q.id);
      if (!shown.has(q.id)) continue;
      if (q.type === 'hidden_field') {
        if (q.hidden_value) values[q.id] = q.hidden_value;
        continue;
      }
      const value = answers[q.id];
      const problem = answerProblem(q, value, opts.complete);
      if (problem) errors[`answers.${q.id}`] = problem;
      else if (!isBlank(value)) values[q.id] = typeof value === 'string' ? value.trim() : [...(value as readonly string[])];
    }
  }
  for (const id of Object.keys(answers)) {
    if (!known.has(id)) errors[`answers.${id}`] = 'permits.validation.unknownQuestion';
  }
  return { values, errors };
}

/** The ids an answer set names for files (attachment questions), for the server's file checks. */
export function answeredFileIds(sections: readonly FormSection[], values: Record<string, string | string[]>): string[] {
  const ids: string[] = [];
  for (const s of sections)
    for (const q of s.questions) if (q.type === 'attachment' && Array.isArray(values[q.id])) ids.push(...(values[q.id] as string[]));
  return ids;
}
