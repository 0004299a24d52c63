import type { AnswerInput, AnswerValue, Answers, FormSection, PermitSection } from '@bulwark/domain';

/**
 * A permit keeps its form as it was submitted (the template may change later), and its answers as they
 * were given, with the names of the entries and files they picked: renaming a master entry or a file
 * later rewrites no permit.
 */
export type StoredSection = PermitSection;
export type StoredAnswers = Record<string, AnswerValue>;

/** The form rules' view of stored sections. */
export function formSections(sections: readonly StoredSection[]): FormSection[] {
  return sections.map((s) => ({ id: s.id, kind: s.kind, active: s.active, questions: s.questions }));
}

/** Stored answers as the form sends them (text, or the picked ids), to check them again on submitting. */
export function answerInputs(stored: StoredAnswers | null | undefined): Answers {
  const out: Record<string, AnswerInput> = {};
  for (const [id, a] of Object.entries(stored ?? {})) out[id] = a.items.length > 0 ? a.items.map((i) => i.id) : a.value;
  return out;
}

/** Checked answer values with the names of what they picked (`names`: id -> name of files and master entries). */
export function storedAnswers(values: Record<string, string | string[]>, names: ReadonlyMap<string, string>): StoredAnswers {
  const out: StoredAnswers = {};
  for (const [id, v] of Object.entries(values)) {
    out[id] = Array.isArray(v) ? { value: null, items: v.map((x) => ({ id: x, name: names.get(x) ?? '' })) } : { value: v, items: [] };
  }
  return out;
}
