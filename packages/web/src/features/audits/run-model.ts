import {
  auditAnswerProblems,
  auditFormQuestions,
  auditProgress,
  auditQuestionResults,
  auditScore,
  emptyAnswerCell,
  type Audit,
  type AuditAnswerCell,
  type AuditAnswerInput,
  type AuditAnswerLike,
  type AuditForm,
  type AuditQuestion,
  type AuditQuestionResult,
  type AuditScore,
} from '@bulwark/domain';

/**
 * What the auditor has given so far, question by question, as the screen holds it: the same pure
 * rules as the server (domain scoring.ts) decide which questions show and the running score, so the
 * screen answers at once, before (and whatever) the network does.
 */

/** A stored file an answer names (photo, signature, attachment), with its address. */
export type FileRef = { id: string; file_name: string; mime_type: string; size_bytes: number; url: string };

export type AnswerDraft = {
  cells: AuditAnswerCell[];
  remark: string | null;
  attachments: FileRef[];
  /** The photos and signatures the cells name (to show them). */
  cellFiles: FileRef[];
};

export type Drafts = Record<string, AnswerDraft>;

/** The cells a question starts with: one, or one per row header. */
export function blankCells(q: Pick<AuditQuestion, 'row_headers'>): AuditAnswerCell[] {
  return Array.from({ length: Math.max(1, q.row_headers.length) }, emptyAnswerCell);
}

export function blankDraft(q: Pick<AuditQuestion, 'row_headers'>): AnswerDraft {
  return { cells: blankCells(q), remark: null, attachments: [], cellFiles: [] };
}

/** A cell nothing was given in. */
export function isBlankCell(c: AuditAnswerCell): boolean {
  return !c.na && c.choice.length === 0 && (c.text ?? '').trim() === '' && c.number === null && !c.date && c.file_ids.length === 0;
}

/** Whether the cells make a whole answer the server takes (every row answered as the type asks). */
export function isComplete(q: AuditQuestion, cells: readonly AuditAnswerCell[]): boolean {
  return Object.keys(auditAnswerProblems(q, cells)).length === 0;
}

/** The drafts of a loaded audit: its saved answers. */
export function draftsOf(audit: Pick<Audit, 'answers'>): Drafts {
  const out: Drafts = {};
  for (const a of audit.answers)
    out[a.question_id] = {
      cells: a.cells.map((c) => ({ ...c, choice: [...c.choice], file_ids: [...c.file_ids] })),
      remark: a.remark,
      attachments: a.attachments,
      cellFiles: a.cell_files,
    };
  return out;
}

/** The whole answers among the drafts, as the scoring rules read them. */
export function wholeAnswers(form: AuditForm, drafts: Drafts): AuditAnswerLike[] {
  return auditFormQuestions(form).flatMap((q) => {
    const d = drafts[q.id];
    return d && isComplete(q, d.cells) ? [{ question_id: q.id, cells: d.cells }] : [];
  });
}

export type LiveState = {
  results: Map<string, AuditQuestionResult>;
  shown: Set<string>;
  score: AuditScore;
  progress: ReturnType<typeof auditProgress>;
};

/** Which questions show, each one's result, the running score and the progress, for these drafts. */
export function liveState(form: AuditForm, drafts: Drafts): LiveState {
  const results = auditQuestionResults(form, wholeAnswers(form, drafts));
  return {
    results: new Map(results.map((r) => [r.question_id, r])),
    shown: new Set(results.filter((r) => r.shown).map((r) => r.question_id)),
    score: auditScore(results, form.scoring),
    progress: auditProgress(form, results),
  };
}

/**
 * The save of one question's draft: the whole answer, or null to clear it when nothing is left.
 * Undefined while the draft is partial (a row not answered yet): nothing is sent until it is whole.
 */
export function answerBody(q: AuditQuestion, d: AnswerDraft): AuditAnswerInput | undefined {
  if (d.cells.every(isBlankCell) && d.attachments.length === 0) return { question_id: q.id, cells: null, remark: null, attachment_ids: [] };
  if (!isComplete(q, d.cells)) return undefined;
  return {
    question_id: q.id,
    cells: d.cells.map((c) => ({ na: c.na, choice: c.choice, text: c.text, number: c.number, date: c.date, file_ids: c.file_ids })),
    remark: d.remark && d.remark.trim() !== '' ? d.remark : null,
    attachment_ids: d.attachments.map((f) => f.id),
  };
}

/** The active sections in order (a section index in the address counts these, from 1). */
export function orderedSections(form: AuditForm) {
  return [...form.sections].sort((a, b) => a.position - b.position);
}

/** The address's section index as a position in range (1-based); 1 when it is not a number. */
export function sectionIndex(raw: string | undefined, count: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) return 1;
  return Math.min(n, Math.max(1, count));
}

/** A yes/no or options cell: the option keys chosen, toggled (one, or several when `multiple`). */
export function toggleChoice(cell: AuditAnswerCell, key: string, multiple: boolean): AuditAnswerCell {
  // One choice is set, not toggled: a second tap on a phone must not clear an answer ("Clear" does).
  if (!multiple) return key === 'na' ? { ...cell, na: true, choice: [] } : { ...cell, na: false, choice: [key] };
  if (key === 'na') return { ...cell, na: !cell.na, choice: [] };
  const has = cell.choice.includes(key);
  return { ...cell, na: false, choice: has ? cell.choice.filter((k) => k !== key) : [...cell.choice, key] };
}

/** Points as people read them: whole numbers plain, halves with one decimal. */
export function points(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}
