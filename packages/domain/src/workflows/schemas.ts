import { z } from 'zod';
import { listQuery, paginationSchema } from '../api/shared.js';

/** Spec 001 §3 Workflow, §9: modules a review workflow can govern, its kinds and its limits. */
export const WORKFLOW_MODULES = ['permits', 'audits', 'incidents', 'observations', 'hira'] as const;
export type WorkflowModule = (typeof WORKFLOW_MODULES)[number];
export const WORKFLOW_TYPES = ['sequential', 'parallel'] as const;
export type WorkflowType = (typeof WORKFLOW_TYPES)[number];

export const WORKFLOW_MAX_REVIEWERS = 5;
export const WORKFLOW_TITLE_MAX = 150;
/** Lead time is counted in hours (DECISIONS.md): a year at most. */
export const WORKFLOW_LEAD_TIME_MAX_HOURS = 8760;
/** Sites and forms one workflow may list. */
export const WORKFLOW_MAX_TARGETS = 200;

const requiredOrInvalid = (iss: { input?: unknown }) =>
  iss.input === undefined || iss.input === null ? 'validation.required' : 'validation.invalid';
const uuid = z.uuid({ error: 'validation.invalid' });

const title = z
  .string({ error: requiredOrInvalid })
  .trim()
  .min(1, { message: 'workflows.validation.titleRequired' })
  .max(WORKFLOW_TITLE_MAX, { message: 'validation.tooLong' });
const reviewers = z
  .array(uuid, { error: requiredOrInvalid })
  .min(1, { message: 'workflows.validation.reviewersRequired' })
  .max(WORKFLOW_MAX_REVIEWERS, { message: 'workflows.validation.tooManyReviewers' })
  .refine((ids) => new Set(ids).size === ids.length, { message: 'workflows.validation.duplicateReviewer' });
const leadTime = z
  .number({ error: requiredOrInvalid })
  .int({ message: 'workflows.validation.leadTime' })
  .min(1, { message: 'workflows.validation.leadTime' })
  .max(WORKFLOW_LEAD_TIME_MAX_HOURS, { message: 'workflows.validation.leadTime' });
const targets = z
  .array(uuid, { error: 'validation.invalid' })
  .max(WORKFLOW_MAX_TARGETS, { message: 'validation.tooLong' })
  .transform((ids) => [...new Set(ids)]);

const fields = {
  title,
  module: z.enum(WORKFLOW_MODULES, { error: requiredOrInvalid }),
  type: z.enum(WORKFLOW_TYPES, { error: requiredOrInvalid }),
  /** In review order: the first is the primary reviewer (the order matters for sequential workflows). */
  reviewer_ids: reviewers,
  /** Hours each reviewer has before a reminder; a second lead time later the review escalates. */
  lead_time_hours: leadTime,
  escalation_user_id: uuid.nullable(),
  site_ids: targets,
  /** Permit or audit templates (forms) of the module the workflow applies to. */
  form_ids: targets,
};

function checkWhole(
  v: Partial<{ site_ids: string[]; form_ids: string[]; reviewer_ids: string[]; escalation_user_id: string | null }>,
  ctx: z.RefinementCtx,
) {
  if (v.site_ids !== undefined && v.form_ids !== undefined && v.site_ids.length === 0 && v.form_ids.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['site_ids'], message: 'workflows.validation.targetRequired' });
  }
  if (v.escalation_user_id && v.reviewer_ids?.includes(v.escalation_user_id)) {
    ctx.addIssue({ code: 'custom', path: ['escalation_user_id'], message: 'workflows.validation.escalationIsReviewer' });
  }
}

/** POST /api/workflows. */
export const workflowCreateSchema = z
  .object({
    ...fields,
    escalation_user_id: fields.escalation_user_id.optional().default(null),
    site_ids: fields.site_ids.optional().default([]),
    form_ids: fields.form_ids.optional().default([]),
  })
  .superRefine(checkWhole);
export type WorkflowCreate = z.infer<typeof workflowCreateSchema>;
export type WorkflowCreateInput = z.input<typeof workflowCreateSchema>;

/** PATCH /api/workflows/{id}: any subset; the whole is checked again on the server after merging. */
export const workflowUpdateSchema = z
  .object({
    title: fields.title.optional(),
    module: fields.module.optional(),
    type: fields.type.optional(),
    reviewer_ids: fields.reviewer_ids.optional(),
    lead_time_hours: fields.lead_time_hours.optional(),
    escalation_user_id: fields.escalation_user_id.optional(),
    site_ids: fields.site_ids.optional(),
    form_ids: fields.form_ids.optional(),
  })
  .superRefine(checkWhole)
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'workflows.validation.nothingToChange' });
export type WorkflowUpdate = z.infer<typeof workflowUpdateSchema>;

/** The rules on a whole workflow (after a PATCH is merged with what is stored). */
export const workflowWholeSchema = z.object(fields).superRefine(checkWhole);

const person = z.object({ id: z.string(), full_name: z.string(), email: z.string(), status: z.string() });

export const workflowSchema = z.object({
  id: z.string(),
  title: z.string(),
  module: z.enum(WORKFLOW_MODULES),
  type: z.enum(WORKFLOW_TYPES),
  lead_time_hours: z.number(),
  reviewers: z.array(person.extend({ position: z.number() })),
  escalation_user: person.nullable(),
  site_ids: z.array(z.string()),
  form_ids: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Workflow = z.infer<typeof workflowSchema>;

export const workflowListResponse = z.object({
  workflows: z.array(workflowSchema),
  pagination: paginationSchema,
});
export type WorkflowListResponse = z.infer<typeof workflowListResponse>;

/** GET /api/workflows/options: who may review and which sites exist, for the form's pickers. */
export const workflowOptionsResponse = z.object({
  users: z.array(z.object({ id: z.string(), full_name: z.string(), email: z.string() })),
  sites: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type WorkflowOptionsResponse = z.infer<typeof workflowOptionsResponse>;

/** GET /api/workflows: a page, filtered by module and searched by title. */
export const workflowListQuery = listQuery.extend({ module: z.enum(WORKFLOW_MODULES, { message: 'validation.invalid' }).optional() });
export type WorkflowListQuery = z.output<typeof workflowListQuery>;
