import { isCalendarDate } from '../incidents/inputs.js';
import { auditChoiceMaxScore, auditFormQuestions, type AuditForm, type AuditQuestion } from './form.js';
import { AUDIT_FILES_PER_ANSWER_MAX, AUDIT_TEXT_ANSWER_MAX, AUDIT_SCORED_TYPES } from './model.js';

/**
 * Answers, conditions and the score (spec 001 §3 Answer: answer, remark, other field, assigned score,
 * obtained score; GLOSSARY: scored obtained ÷ assigned). Pure: the server stores what these compute,
 * the web shows the same figures while the auditor answers.
 */

/**
 * One answer of one cell: a question answers one cell, or one per row header. `na` is "not
 * applicable"; the other members hold the answer of the question's type (choice keys for yes/no and
 * choice questions, text, a number, a date, the files of a photo or signature).
 */
export type AuditAnswerCell = {
  na: boolean;
  choice: string[];
  text: string | null;
  number: number | null;
  date: string | null;
  file_ids: string[];
};

/** What scoring reads of a stored answer. */
export type AuditAnswerLike = { question_id: string; cells: readonly AuditAnswerCell[] };

export const emptyAnswerCell = (): AuditAnswerCell => ({ na: false, choice: [], text: null, number: null, date: null, file_ids: [] });

/**
 * The problems of an answer to `q`, as `cells.N.<field>` -> i18n key; empty when it is a whole answer.
 * A question with row headers takes one cell per row; the others exactly one.
 */
export function auditAnswerProblems(q: AuditQuestion, cells: readonly AuditAnswerCell[]): Record<string, string> {
  const out: Record<string, string> = {};
  const rows = Math.max(1, q.row_headers.length);
  if (cells.length !== rows) {
    out['cells'] = 'audits.validation.cellCount';
    return out;
  }
  const keys = new Set(q.type === 'yes_no' ? ['yes', 'no'] : q.options.map((o) => o.key));
  cells.forEach((c, n) => {
    const at = (f: string) => `cells.${n}.${f}`;
    if (c.na) {
      if (!q.allow_na && q.type !== 'yes_no') out[at('na')] = 'audits.validation.naNotAllowed';
      return;
    }
    switch (q.type) {
      case 'yes_no':
        if (c.choice.length !== 1 || !keys.has(c.choice[0]!)) out[at('choice')] = 'audits.validation.answerRequired';
        break;
      case 'choice':
        if (c.choice.length === 0) out[at('choice')] = 'audits.validation.answerRequired';
        else if (!q.multiple && c.choice.length > 1) out[at('choice')] = 'audits.validation.oneOption';
        else if (c.choice.some((k) => !keys.has(k)) || new Set(c.choice).size !== c.choice.length)
          out[at('choice')] = 'audits.validation.optionUnknown';
        break;
      case 'text':
        if (!c.text || c.text.trim() === '') out[at('text')] = 'audits.validation.answerRequired';
        else if (c.text.length > AUDIT_TEXT_ANSWER_MAX) out[at('text')] = 'validation.tooLong';
        break;
      case 'number':
        if (c.number === null || !Number.isFinite(c.number)) out[at('number')] = 'audits.validation.answerRequired';
        break;
      case 'date':
        if (!c.date || !isCalendarDate(c.date)) out[at('date')] = 'audits.validation.answerRequired';
        break;
      case 'photo':
        if (c.file_ids.length === 0) out[at('file_ids')] = 'audits.validation.photoRequired';
        else if (c.file_ids.length > AUDIT_FILES_PER_ANSWER_MAX) out[at('file_ids')] = 'validation.tooLong';
        break;
      case 'signature':
        if (c.file_ids.length !== 1) out[at('file_ids')] = 'audits.validation.signatureRequired';
        break;
    }
  });
  return out;
}

/** The option keys a cell chose, with 'na' for not applicable (what conditions and notices match). */
export function auditChosenKeys(cell: AuditAnswerCell): string[] {
  return cell.na ? ['na'] : cell.choice;
}

/** Whether one answered cell fails: not the expected yes/no, a failing option, a number out of range. */
export function auditCellFails(q: AuditQuestion, c: AuditAnswerCell): boolean {
  if (c.na) return false;
  if (q.type === 'yes_no') return q.expected !== null && c.choice[0] !== undefined && c.choice[0] !== q.expected;
  if (q.type === 'choice') return c.choice.some((k) => q.options.find((o) => o.key === k)?.failure === true);
  if (q.type === 'number' && c.number !== null) return (q.min !== null && c.number < q.min) || (q.max !== null && c.number > q.max);
  return false;
}

/** The points one cell is worth and gets; null when it does not count (unscored type, or NA). */
export function auditCellScore(q: AuditQuestion, c: AuditAnswerCell): { obtained: number; assigned: number } | null {
  if (c.na || !AUDIT_SCORED_TYPES.includes(q.type)) return null;
  if (q.type === 'yes_no') return { assigned: q.score, obtained: auditCellFails(q, c) ? 0 : q.score };
  if (q.type === 'choice') {
    const assigned = auditChoiceMaxScore(q);
    const got = c.choice.reduce((sum, k) => sum + (q.options.find((o) => o.key === k)?.score ?? 0), 0);
    return { assigned, obtained: Math.max(0, Math.min(assigned, got)) };
  }
  // A number is scored only against a range: inside it gets the points.
  if (q.min === null && q.max === null) return null;
  return { assigned: q.score, obtained: auditCellFails(q, c) ? 0 : q.score };
}

export type AuditQuestionResult = {
  question_id: string;
  shown: boolean;
  answered: boolean;
  /** Every cell not applicable. */
  na: boolean;
  failed: boolean;
  critical_failed: boolean;
  /** Null when the question does not count (unscored, NA, hidden, unanswered, or scoring off). */
  obtained: number | null;
  assigned: number | null;
};

/**
 * Which questions show (spec parentID/activeoption): a child shows when its parent shows and one of
 * the parent's answered cells chose the child's option. Parents come earlier in the form, so one pass
 * in order decides every question.
 */
export function auditShownQuestions(form: Pick<AuditForm, 'sections'>, answers: readonly AuditAnswerLike[]): Set<string> {
  const byQuestion = new Map(answers.map((a) => [a.question_id, a]));
  const shown = new Set<string>();
  for (const q of auditFormQuestions(form)) {
    if (!q.condition) {
      shown.add(q.id);
      continue;
    }
    const parent = byQuestion.get(q.condition.question_id);
    if (!shown.has(q.condition.question_id) || !parent) continue;
    if (parent.cells.some((c) => auditChosenKeys(c).includes(q.condition!.option_key))) shown.add(q.id);
  }
  return shown;
}

/** Each question's result: shown, answered, failed, and its points. */
export function auditQuestionResults(form: AuditForm, answers: readonly AuditAnswerLike[]): AuditQuestionResult[] {
  const shown = auditShownQuestions(form, answers);
  const byQuestion = new Map(answers.map((a) => [a.question_id, a]));
  return auditFormQuestions(form).map((q) => {
    const a = byQuestion.get(q.id);
    const isShown = shown.has(q.id);
    const answered = !!a && Object.keys(auditAnswerProblems(q, a.cells)).length === 0;
    const cells = answered ? a!.cells : [];
    const failed = isShown && answered && cells.some((c) => auditCellFails(q, c));
    const scores = isShown && answered && form.scoring ? cells.map((c) => auditCellScore(q, c)).filter((s) => s !== null) : [];
    return {
      question_id: q.id,
      shown: isShown,
      answered,
      na: answered && cells.every((c) => c.na),
      failed,
      critical_failed: failed && q.critical,
      obtained: scores.length ? scores.reduce((s, x) => s + x.obtained, 0) : null,
      assigned: scores.length ? scores.reduce((s, x) => s + x.assigned, 0) : null,
    };
  });
}

export type AuditScore = {
  /** Points obtained ÷ points assigned over the shown, answered, applicable, scored questions. */
  obtained: number;
  assigned: number;
  /** 0..100 with one decimal; null while nothing scored is answered or when scoring is off. */
  percent: number | null;
};

/** The running score (issue 17: obtained ÷ assigned, only over questions shown by the conditions, NA excluded). */
export function auditScore(results: readonly AuditQuestionResult[], scoring = true): AuditScore {
  let obtained = 0;
  let assigned = 0;
  for (const r of results) {
    if (r.obtained === null || r.assigned === null) continue;
    obtained += r.obtained;
    assigned += r.assigned;
  }
  return { obtained, assigned, percent: scoring && assigned > 0 ? Math.round((obtained / assigned) * 1000) / 10 : null };
}

/** Shown questions, how many are answered, and the required ones still missing (in form order). */
export function auditProgress(form: AuditForm, results: readonly AuditQuestionResult[]) {
  const required = new Set(
    auditFormQuestions(form)
      .filter((q) => q.required)
      .map((q) => q.id),
  );
  const shown = results.filter((r) => r.shown);
  return {
    shown: shown.length,
    answered: shown.filter((r) => r.answered).length,
    missing_required: shown.filter((r) => required.has(r.question_id) && !r.answered).map((r) => r.question_id),
  };
}

/** Whether an answer to `q` triggers its notice (spec isNotify: who and when). */
export function auditNoticeTriggered(q: AuditQuestion, cells: readonly AuditAnswerCell[]): boolean {
  if (!q.notify) return false;
  if (q.notify.when === 'any') return true;
  if (q.notify.when === 'failure') return cells.some((c) => auditCellFails(q, c));
  return cells.some((c) => auditChosenKeys(c).some((k) => q.notify!.option_keys.includes(k)));
}
