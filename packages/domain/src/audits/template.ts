import { z } from 'zod';
import { distinct, invalid, optionalText, requiredOrInvalid, requiredText, tooLong } from '../incidents/inputs.js';
import { auditSectionSchema, AUDIT_NOTIFY_WHEN } from './form.js';
import {
  AUDIT_DECLARATION_MAX,
  AUDIT_DESCRIPTION_MAX,
  AUDIT_ICONS,
  AUDIT_NAME_MAX,
  AUDIT_NOTIFY_USERS_MAX,
  AUDIT_OPTION_LABEL_MAX,
  AUDIT_OPTIONS_MAX,
  AUDIT_QUESTION_LABEL_MAX,
  AUDIT_QUESTIONS_PER_SECTION_MAX,
  AUDIT_ROW_HEADERS_MAX,
  AUDIT_SCORE_MAX,
  AUDIT_SECTION_NAME_MAX,
  AUDIT_TYPES,
  AUDIT_NOTIFY_ROLES,
  AUDIT_RESPONSE_TYPES,
} from './model.js';

/**
 * Audit templates ("audit forms", screens /audit-forms and /audit-forms/{id}, Audit Template rights;
 * spec 001 §3 Audit name, description, icon, type, scoring flag, sections and questions with the
 * template question extras). The section calls follow the permit templates': `form_types` manage the
 * section list alone (name, order, on/off), `sections` save a section with its ordered questions.
 */

const uuid = z.uuid(invalid);
const position = z.coerce.number(invalid).int(invalid).min(1, invalid).max(1000, invalid);
const score = z.coerce
  .number(invalid)
  .min(0, { message: 'audits.validation.scoreRange' })
  .max(AUDIT_SCORE_MAX, { message: 'audits.validation.scoreRange' })
  .refine((v) => Number.isInteger(v * 2), { message: 'audits.validation.scoreRange' });

const templateFields = {
  name: requiredText(AUDIT_NAME_MAX),
  description: optionalText(AUDIT_DESCRIPTION_MAX),
  icon: z.enum(AUDIT_ICONS, { error: requiredOrInvalid('audits.validation.icon') }),
  type: z.enum(AUDIT_TYPES, { error: requiredOrInvalid('audits.validation.type') }),
  /** Scoring on: answers earn points and the audit has a score; off: a checklist without one. */
  scoring: z.boolean(invalid),
  /** What the auditor confirms when completing an audit of this template (spec "declaration"); none when null. */
  declaration: optionalText(AUDIT_DECLARATION_MAX),
  /** A switched-off template keeps its audits but takes no new schedule. */
  active: z.boolean(invalid),
};

/** POST /api/audits: a template; it starts with one empty section. */
export const auditTemplateCreateBody = z.object({
  ...templateFields,
  scoring: templateFields.scoring.default(true),
  active: templateFields.active.default(true),
});
export type AuditTemplateCreate = z.output<typeof auditTemplateCreateBody>;
export type AuditTemplateCreateInput = z.input<typeof auditTemplateCreateBody>;

/** PATCH /api/audits/{id}: any field. */
export const auditTemplateUpdateBody = z.object(templateFields).partial();
export type AuditTemplateUpdate = z.output<typeof auditTemplateUpdateBody>;
export type AuditTemplateUpdateInput = z.input<typeof auditTemplateUpdateBody>;

/** POST /api/audits/{id}/clone: a copy with its sections and questions, under a new name ("<name> (copy)" when none is given). */
export const auditTemplateCloneBody = z.object({ name: optionalText(AUDIT_NAME_MAX) });
export type AuditTemplateCloneInput = z.input<typeof auditTemplateCloneBody>;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
export const auditTemplateListQuery = z.object({
  search: z.string(invalid).trim().max(200, tooLong).optional(),
  type: z.preprocess(emptyToUndefined, z.enum(AUDIT_TYPES, invalid).optional()),
  /** 'true': only switched-on templates (the schedule form's choice). */
  active: z
    .enum(['true', 'false'], invalid)
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
});
export type AuditTemplateListQueryInput = z.input<typeof auditTemplateListQuery>;

/* ---- Questions ---- */

/** An option as the editor saves it; without a key it is new (the server gives it one). */
export const auditOptionInput = z.object({
  key: z.string(invalid).trim().min(1, invalid).max(64, tooLong).optional(),
  label: requiredText(AUDIT_OPTION_LABEL_MAX),
  score: score.default(0),
  /** Choosing it is a failed (non-compliant) answer: counted in trends, and a critical question's alarm. */
  failure: z.boolean(invalid).default(false),
});
export type AuditOptionInput = z.output<typeof auditOptionInput>;

/**
 * A child question's parent: `question` is the parent's id, or the `key` of a question saved in the
 * same call; `option` an option key of it, or its label (for an option new in this call), or yes, no, na.
 * The parent must come earlier in the form.
 */
export const auditConditionInput = z.object({
  question: z.string(invalid).trim().min(1, { message: 'validation.required' }).max(64, tooLong),
  option: requiredText(AUDIT_OPTION_LABEL_MAX),
});

export const auditNotifyInput = z.object({
  when: z.enum(AUDIT_NOTIFY_WHEN, { error: requiredOrInvalid() }).default('any'),
  /** With `when: 'options'`: option keys or labels (yes, no, na for a yes/no question). */
  options: distinct(requiredText(AUDIT_OPTION_LABEL_MAX), AUDIT_OPTIONS_MAX + 1).default([]),
  user_ids: distinct(uuid, AUDIT_NOTIFY_USERS_MAX).default([]),
  roles: distinct(z.enum(AUDIT_NOTIFY_ROLES, invalid), AUDIT_NOTIFY_ROLES.length).default([]),
});

/**
 * One question as the editor saves it. `id` keeps an existing question (its answers in past audits keep
 * their meaning); without it the question is new, and `key` lets a condition of the same save name it.
 * Leaving a question out of its section's list removes it (refused while a child question names it).
 */
export const auditQuestionInput = z
  .object({
    id: uuid.optional(),
    key: z.string(invalid).trim().max(40, tooLong).optional(),
    type: z.enum(AUDIT_RESPONSE_TYPES, { error: requiredOrInvalid('audits.validation.questionType') }),
    label: requiredText(AUDIT_QUESTION_LABEL_MAX),
    description: optionalText(AUDIT_DESCRIPTION_MAX),
    required: z.boolean(invalid).default(true),
    critical: z.boolean(invalid).default(false),
    /** Points of a yes/no question, or of a number question answered within its range. */
    score: score.default(0),
    expected: z.enum(['yes', 'no'], invalid).nullable().default(null),
    allow_na: z.boolean(invalid).optional(),
    multiple: z.boolean(invalid).default(false),
    options: z.array(auditOptionInput, invalid).max(AUDIT_OPTIONS_MAX, { message: 'audits.validation.tooManyOptions' }).default([]),
    add_options: z.boolean(invalid).default(false),
    min: z.coerce.number(invalid).nullable().default(null),
    max: z.coerce.number(invalid).nullable().default(null),
    attachments: z.boolean(invalid).default(false),
    row_headers: distinct(requiredText(AUDIT_OPTION_LABEL_MAX), AUDIT_ROW_HEADERS_MAX).default([]),
    condition: auditConditionInput.nullable().default(null),
    notify: auditNotifyInput.nullable().default(null),
  })
  .superRefine((q, ctx) => {
    const at = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (q.type === 'choice') {
      if (q.options.length < 2) at('options', 'audits.validation.twoOptions');
      const labels = q.options.map((o) => o.label.toLowerCase());
      if (new Set(labels).size !== labels.length) at('options', 'audits.validation.optionTwice');
      const keys = q.options.map((o) => o.key).filter((k): k is string => !!k);
      if (new Set(keys).size !== keys.length) at('options', 'validation.invalid');
    } else if (q.options.length > 0) at('options', 'audits.validation.optionsOnlyForChoice');
    if (q.type !== 'choice' && (q.multiple || q.add_options)) at('multiple', 'audits.validation.optionsOnlyForChoice');
    if (q.type !== 'yes_no' && q.expected !== null) at('expected', 'validation.invalid');
    if (q.type !== 'number' && (q.min !== null || q.max !== null)) at('min', 'validation.invalid');
    if (q.min !== null && q.max !== null && q.min > q.max) at('max', 'audits.validation.rangeOrder');
    const scored = q.type === 'yes_no' || (q.type === 'number' && (q.min !== null || q.max !== null));
    if (!scored && q.score > 0) at('score', 'audits.validation.scoreNotUsed');
    if (q.critical && !['yes_no', 'choice', 'number'].includes(q.type)) at('critical', 'audits.validation.criticalNeedsFailure');
    if (q.notify?.when === 'options' && q.notify.options.length === 0) at('notify', 'audits.validation.notifyOptions');
    if (q.notify && q.notify.user_ids.length === 0 && q.notify.roles.length === 0) at('notify', 'audits.validation.notifyWhom');
  })
  .transform((q) => ({ ...q, allow_na: q.allow_na ?? q.type === 'yes_no', expected: q.type === 'yes_no' ? (q.expected ?? 'yes') : null }));
export type AuditQuestionInput = z.output<typeof auditQuestionInput>;
export type AuditQuestionInputRaw = z.input<typeof auditQuestionInput>;

/* ---- Sections ("form types") ---- */

/** POST /api/audits/{id}/form_types: an empty section, at the end unless a position is given. */
export const auditFormTypeCreateBody = z.object({ name: requiredText(AUDIT_SECTION_NAME_MAX), position: position.optional() });
/** PATCH /api/audits/{id}/form_types/{form_type_id}: rename, move (1-based position) or switch off. */
export const auditFormTypeUpdateBody = z
  .object({ name: requiredText(AUDIT_SECTION_NAME_MAX), position, active: z.boolean(invalid) })
  .partial();

/**
 * POST /api/audits/{id}/sections and PATCH /api/audits/{id}/sections/{section_id}: a section with its
 * questions, saved whole. `questions` is the section's list after the save, in order.
 */
export const auditSectionSaveBody = z.object({
  name: requiredText(AUDIT_SECTION_NAME_MAX),
  position: position.optional(),
  active: z.boolean(invalid).optional(),
  questions: z.array(auditQuestionInput, invalid).max(AUDIT_QUESTIONS_PER_SECTION_MAX, { message: 'audits.validation.tooManyQuestions' }),
});
export type AuditSectionSave = z.output<typeof auditSectionSaveBody>;
export type AuditSectionSaveInput = z.input<typeof auditSectionSaveBody>;

/** Paths of one section of a template: the template's id and the section's. */
export const auditSectionParams = z.object({ id: uuid, section_id: uuid });
export const auditFormTypeParams = z.object({ id: uuid, form_type_id: uuid });

/* ---- Responses ---- */

export const auditTemplateSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  icon: z.enum(AUDIT_ICONS),
  type: z.enum(AUDIT_TYPES),
  scoring: z.boolean(),
  declaration: z.string().nullable(),
  active: z.boolean(),
  sections_count: z.number(),
  questions_count: z.number(),
  /** The most points an audit of it can score when every question shows (conditions aside). */
  max_score: z.number(),
  /** Audits and schedules made from it (a template with either cannot be deleted; switch it off instead). */
  audits_count: z.number(),
  schedules_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AuditTemplateSummary = z.infer<typeof auditTemplateSummarySchema>;

export const auditTemplateListResponse = z.object({
  templates: z.array(auditTemplateSummarySchema),
  /** The free account's template limit: how many it may keep (null: no limit), to say so before the form. */
  limit: z.number().nullable(),
});
export const auditTemplateResponse = z.object({ template: auditTemplateSummarySchema.extend({ sections: z.array(auditSectionSchema) }) });
export type AuditTemplateDetail = z.infer<typeof auditTemplateResponse>['template'];
export const auditSectionsResponse = z.object({ sections: z.array(auditSectionSchema) });
export const auditSectionResponse = z.object({ section: auditSectionSchema });
