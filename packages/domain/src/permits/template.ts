import { z } from 'zod';
import { distinct, invalid, optionalText, requiredOrInvalid, requiredText, tooLong } from '../incidents/inputs.js';
import {
  ATTACHMENT_KINDS,
  PERMIT_DECLARATION_MAX,
  PERMIT_EXTENSION_MAX_HOURS,
  PERMIT_MAX_HOURS,
  PERMIT_OPTION_MAX,
  PERMIT_OPTIONS_MAX,
  PERMIT_PREFIX_PATTERN,
  PERMIT_QUESTION_LABEL_MAX,
  PERMIT_QUESTIONS_PER_SECTION_MAX,
  PERMIT_TEMPLATE_DEFAULT_HOURS,
  PERMIT_TEMPLATE_DESCRIPTION_MAX,
  PERMIT_TEMPLATE_EXTENSION_HOURS,
  PERMIT_TEMPLATE_NAME_MAX,
  PERMIT_TEXT_AREA_MAX,
  QUESTION_BINDINGS,
  QUESTION_TYPES,
  SECTION_KINDS,
} from './model.js';

/**
 * Permit templates ("permit types", spec 000 §7 `/api/permits`; spec 001 §3 Permit template, Section,
 * Question): the settings screens /permit-forms and /permit-forms/{id}, Permit Form Setting rights.
 */

const uuid = z.uuid(invalid);
const hours = (max: number, fallback: number) =>
  z.coerce
    .number(invalid)
    .int(invalid)
    .min(1, { message: 'permits.validation.hoursRange' })
    .max(max, { message: 'permits.validation.hoursRange' })
    .default(fallback);

/** 'HW', 'CS2': capitals and digits, starting with a letter (upper-cased before the check). */
export const permitPrefixSchema = z
  .string({ error: requiredOrInvalid() })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => v.length > 0, { message: 'validation.required' })
  .refine((v) => PERMIT_PREFIX_PATTERN.test(v), { message: 'permits.validation.prefix' });

const templateFields = {
  name: requiredText(PERMIT_TEMPLATE_NAME_MAX),
  description: requiredText(PERMIT_TEMPLATE_DESCRIPTION_MAX),
  prefix: permitPrefixSchema,
  /** Hours from the start to the default end (spec: 8). */
  default_hours: hours(PERMIT_MAX_HOURS, PERMIT_TEMPLATE_DEFAULT_HOURS),
  /** Hours an approved extension adds to the end (spec: 4). */
  extension_hours: hours(PERMIT_EXTENSION_MAX_HOURS, PERMIT_TEMPLATE_EXTENSION_HOURS),
  /** The declaration the extension form shows and the requester confirms (spec 001 §3). */
  extension_declaration: requiredText(PERMIT_DECLARATION_MAX),
  /** The template's enable switch: a switched-off template takes no new requests. */
  enabled: z.boolean(invalid).default(true),
};

/** POST /api/permits: a template; it starts with the four default sections (spec 001 §3). */
export const permitTemplateCreateBody = z.object({
  ...templateFields,
  extension_declaration: templateFields.extension_declaration.optional(),
});
export type PermitTemplateCreate = z.output<typeof permitTemplateCreateBody>;
export type PermitTemplateCreateInput = z.input<typeof permitTemplateCreateBody>;

/**
 * PATCH /api/permits/{id}: any field; `conflict_template_ids` is the whole list of templates whose
 * work must not share an area and time with this one's (kept both ways; this template itself may be
 * in it, e.g. two hot works in one area).
 */
export const permitTemplateUpdateBody = z
  .object({
    name: templateFields.name,
    description: templateFields.description,
    prefix: templateFields.prefix,
    default_hours: z.coerce
      .number(invalid)
      .int(invalid)
      .min(1, { message: 'permits.validation.hoursRange' })
      .max(PERMIT_MAX_HOURS, { message: 'permits.validation.hoursRange' }),
    extension_hours: z.coerce
      .number(invalid)
      .int(invalid)
      .min(1, { message: 'permits.validation.hoursRange' })
      .max(PERMIT_EXTENSION_MAX_HOURS, { message: 'permits.validation.hoursRange' }),
    extension_declaration: templateFields.extension_declaration,
    enabled: z.boolean(invalid),
    conflict_template_ids: distinct(uuid, 200),
  })
  .partial();
export type PermitTemplateUpdate = z.output<typeof permitTemplateUpdateBody>;
export type PermitTemplateUpdateInput = z.input<typeof permitTemplateUpdateBody>;

export const permitTemplateListQuery = z.object({
  search: z.string(invalid).trim().max(200, tooLong).optional(),
  /** 'true': only the switched-on templates (the request flow's type choice). */
  enabled: z
    .enum(['true', 'false'], invalid)
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true')),
});

/* ---- Sections ("form types") and questions ---- */

/** The file limits of an attachment question. */
export const attachmentRuleSchema = z.object({
  kinds: distinct(z.enum(ATTACHMENT_KINDS, invalid), ATTACHMENT_KINDS.length).refine((v) => v.length > 0, {
    message: 'permits.validation.attachmentKinds',
  }),
  max_files: z.coerce.number(invalid).int(invalid).min(1, invalid).max(20, invalid).default(5),
  /** Largest file in KB; at most the attachment rule's 10 MB. */
  max_file_kb: z.coerce
    .number(invalid)
    .int(invalid)
    .min(1, invalid)
    .max(10 * 1024, invalid)
    .default(10 * 1024),
});
export type AttachmentRule = z.output<typeof attachmentRuleSchema>;

/**
 * A question shown only when a radio question has a given answer. `question` names the radio question:
 * its id, or the `key` of a question saved in the same call. It must come earlier in the form (an
 * earlier section, or earlier in this one).
 */
export const questionConditionSchema = z.object({
  question: z.string(invalid).trim().min(1, { message: 'validation.required' }).max(64, tooLong),
  answer: requiredText(PERMIT_OPTION_MAX),
});

/**
 * One question as the template editor saves it. `id` keeps an existing question (its answers stay
 * linked); without it the question is new, and `key` lets a condition of the same save point at it.
 * `destroy: true` removes the question named by `id` (so does leaving it out of the list).
 */
export const questionInput = z.object({
  id: uuid.optional(),
  key: z.string(invalid).trim().max(40, tooLong).optional(),
  type: z.enum(QUESTION_TYPES, { error: requiredOrInvalid('permits.validation.questionType') }),
  label: requiredText(PERMIT_QUESTION_LABEL_MAX),
  required: z.boolean(invalid).default(false),
  /** For text questions: at most this many characters (within the type's own cap). */
  max_length: z.coerce.number(invalid).int(invalid).min(1, invalid).max(PERMIT_TEXT_AREA_MAX, invalid).nullable().default(null),
  /** For radio questions: two or more distinct choices. */
  options: distinct(requiredText(PERMIT_OPTION_MAX), PERMIT_OPTIONS_MAX, 'permits.validation.tooManyOptions').default([]),
  attachment: attachmentRuleSchema.nullable().default(null),
  /** For hidden fields: the value recorded with every permit (the requester never sees it). */
  hidden_value: optionalText(255),
  /** The intro text shown under the label. */
  help_text: optionalText(1000),
  condition: questionConditionSchema.nullable().default(null),
  remove_reference_image: z.boolean(invalid).default(false),
  destroy: z.boolean(invalid).default(false),
});
export type QuestionInput = z.output<typeof questionInput>;
export type QuestionInputRaw = z.input<typeof questionInput>;

/** POST /api/permits/{id}/form_types: a custom section, at the end unless a position is given. */
export const permitSectionCreateBody = z.object({
  name: requiredText(100),
  position: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100, invalid).optional(),
});
/** PATCH /api/permits/{id}/form_types/{form_type_id}: rename, move (1-based position) or switch off. */
export const permitSectionUpdateBody = z
  .object({
    name: requiredText(100),
    position: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100, invalid),
    active: z.boolean(invalid),
  })
  .partial();

/**
 * POST /api/permits/{id}/sections and PATCH /api/permits/{permit_id}/sections/{section_id}: a section
 * with its questions, saved whole. `questions` is the section's list after the save, in order.
 */
export const permitSectionSaveBody = z.object({
  name: requiredText(100),
  position: z.coerce.number(invalid).int(invalid).min(1, invalid).max(100, invalid).optional(),
  active: z.boolean(invalid).optional(),
  questions: z.array(questionInput, invalid).max(PERMIT_QUESTIONS_PER_SECTION_MAX, { message: 'permits.validation.tooManyQuestions' }),
});
export type PermitSectionSave = z.output<typeof permitSectionSaveBody>;
export type PermitSectionSaveInput = z.input<typeof permitSectionSaveBody>;

export const permitSectionParams = z.object({ permit_id: uuid, section_id: uuid });
export const permitFormTypeParams = z.object({ id: uuid, form_type_id: uuid });

/* ---- Responses ---- */

const fileRef = z.object({ id: z.string(), file_name: z.string() });

export const permitQuestionSchema = z.object({
  id: z.string(),
  section_id: z.string(),
  position: z.number(),
  type: z.enum(QUESTION_TYPES),
  label: z.string(),
  required: z.boolean(),
  max_length: z.number().nullable(),
  options: z.array(z.string()),
  attachment: z.object({ kinds: z.array(z.enum(ATTACHMENT_KINDS)), max_files: z.number(), max_file_kb: z.number() }).nullable(),
  hidden_value: z.string().nullable(),
  help_text: z.string().nullable(),
  reference_image: fileRef.nullable(),
  /** Shown only when the radio question `question_id` is answered `answer`. */
  condition: z.object({ question_id: z.string(), answer: z.string() }).nullable(),
  /** What a fixed question feeds (the permit's site, area, start or end); null for the others. */
  binding: z.enum(QUESTION_BINDINGS).nullable(),
  /** Bound questions keep their type and cannot be removed. */
  fixed: z.boolean(),
});
export type PermitQuestion = z.infer<typeof permitQuestionSchema>;

export const permitSectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(SECTION_KINDS),
  position: z.number(),
  /** Location, duration and closure: cannot be removed (the permit's fields and its closing need them). */
  fixed: z.boolean(),
  active: z.boolean(),
  questions: z.array(permitQuestionSchema),
});
export type PermitSection = z.infer<typeof permitSectionSchema>;

export const permitTemplateSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  prefix: z.string(),
  default_hours: z.number(),
  extension_hours: z.number(),
  extension_declaration: z.string(),
  enabled: z.boolean(),
  conflict_template_ids: z.array(z.string()),
  sections_count: z.number(),
  questions_count: z.number(),
  /** Permits raised from it (a template with permits cannot be deleted; switch it off instead). */
  permits_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PermitTemplateSummary = z.infer<typeof permitTemplateSummarySchema>;

export const permitTemplateListResponse = z.object({ templates: z.array(permitTemplateSummarySchema) });
export const permitTemplateResponse = z.object({
  template: permitTemplateSummarySchema.extend({ sections: z.array(permitSectionSchema) }),
});
export type PermitTemplateDetail = z.infer<typeof permitTemplateResponse>['template'];
export const permitSectionsResponse = z.object({ sections: z.array(permitSectionSchema) });
export const permitSectionResponse = z.object({ section: permitSectionSchema });
export const permitQuestionResponse = z.object({ question: permitQuestionSchema });
