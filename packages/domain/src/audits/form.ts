import { z } from 'zod';
import { AUDIT_NOTIFY_ROLES, AUDIT_RESPONSE_TYPES } from './model.js';

/**
 * The form of an audit: ordered sections of ordered questions (spec 001 §3 "sections (order), questions,
 * response types" and the template question extras). A template holds it; an audit copies it when it is
 * started (`form` of the audit), so later edits of the template change the audits not started yet and
 * never the answers given. Question and option ids stay the template's, so trends can count a question
 * across audits.
 */

/** An option of a choice question: its points and whether choosing it is a failed (non-compliant) answer. */
export const auditOptionSchema = z.object({
  /** Stable within the question; conditions and notices name options by it. */
  key: z.string(),
  label: z.string(),
  score: z.number(),
  failure: z.boolean(),
  /** Added by an auditor while answering ("add options", spec showAddOptions); lives in that audit only. */
  added: z.boolean(),
});
export type AuditOption = z.infer<typeof auditOptionSchema>;

/**
 * A notice sent when a question is answered (spec isNotify and notify_attr: who and when):
 * - when: on any answer, on a failed answer, or when one of `option_keys` is chosen;
 * - who: the people named and/or the site's head of safety, the auditee, the auditor.
 */
export const AUDIT_NOTIFY_WHEN = ['any', 'failure', 'options'] as const;
export type AuditNotifyWhen = (typeof AUDIT_NOTIFY_WHEN)[number];
export const auditNotifySchema = z.object({
  when: z.enum(AUDIT_NOTIFY_WHEN),
  option_keys: z.array(z.string()),
  user_ids: z.array(z.string()),
  roles: z.array(z.enum(AUDIT_NOTIFY_ROLES)),
});
export type AuditNotify = z.infer<typeof auditNotifySchema>;

/** A child question shows only when its parent's chosen option is `option_key` (spec parentID, activeoption). */
export const auditConditionSchema = z.object({ question_id: z.string(), option_key: z.string() });
export type AuditCondition = z.infer<typeof auditConditionSchema>;

export const auditQuestionSchema = z.object({
  id: z.string(),
  section_id: z.string(),
  /** 1-based within its section. */
  position: z.number(),
  type: z.enum(AUDIT_RESPONSE_TYPES),
  label: z.string(),
  /** The explanation shown under the label (spec isDescription). */
  description: z.string().nullable(),
  required: z.boolean(),
  /** A failed answer to a critical question tells the site's head of safety at once. */
  critical: z.boolean(),
  /** Points of a yes/no or number question; for a choice question, the most its options give (derived). */
  score: z.number(),
  /** yes/no: which answer complies ('yes' unless the question is asked the other way round). */
  expected: z.enum(['yes', 'no']).nullable(),
  /** Not applicable may be answered (always for yes/no); NA answers leave the score. */
  allow_na: z.boolean(),
  /** choice: several options may be chosen (spec isMulti). */
  multiple: z.boolean(),
  options: z.array(auditOptionSchema),
  /** choice: the auditor may add an option while answering (spec showAddOptions). */
  add_options: z.boolean(),
  /** number: the acceptable range; outside it the answer fails and scores nothing. */
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Photos and documents may be attached to the answer (spec isAttach). */
  attachments: z.boolean(),
  /** The question is answered once per row (spec showRowHeaders), e.g. one row per extinguisher. */
  row_headers: z.array(z.string()),
  condition: auditConditionSchema.nullable(),
  notify: auditNotifySchema.nullable(),
});
export type AuditQuestion = z.infer<typeof auditQuestionSchema>;

export const auditSectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** 1-based. */
  position: z.number(),
  /** A switched-off section is left out of new audits. */
  active: z.boolean(),
  questions: z.array(auditQuestionSchema),
});
export type AuditSection = z.infer<typeof auditSectionSchema>;

/** The form an audit runs: the template's active sections when it was started. */
export const auditFormSchema = z.object({
  scoring: z.boolean(),
  declaration: z.string().nullable(),
  sections: z.array(auditSectionSchema),
});
export type AuditForm = z.infer<typeof auditFormSchema>;

/** Every question of a form in order (sections, then questions). */
export function auditFormQuestions(form: Pick<AuditForm, 'sections'>): AuditQuestion[] {
  return [...form.sections]
    .sort((a, b) => a.position - b.position)
    .flatMap((s) => [...s.questions].sort((a, b) => a.position - b.position));
}

/** The most a choice question's options give: the best option, or all the positive ones when several may be chosen. */
export function auditChoiceMaxScore(q: Pick<AuditQuestion, 'multiple' | 'options'>): number {
  const scores = q.options.map((o) => o.score);
  if (scores.length === 0) return 0;
  return q.multiple ? scores.filter((s) => s > 0).reduce((a, b) => a + b, 0) : Math.max(0, ...scores);
}

/** The option keys a condition or notice of `q` may name. */
export function auditOptionKeysOf(q: Pick<AuditQuestion, 'type' | 'options' | 'allow_na'>): string[] {
  if (q.type === 'yes_no') return ['yes', 'no', 'na'];
  if (q.type === 'choice') return [...q.options.map((o) => o.key), ...(q.allow_na ? ['na'] : [])];
  return [];
}
