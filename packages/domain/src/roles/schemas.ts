import { z } from 'zod';
import { paginationSchema } from '../api/shared.js';
import { ROLE_SUBJECTS, isWorkflowSubject, type Subject } from '../access/subjects.js';
import { ROLE_PERMIT_RULE_NAMES, ROLE_WORKFLOW_FLAGS } from './matrix.js';

export const ROLE_NAME_MAX = 60;

/**
 * A role's name (spec 001 §5 "role name"): letters (any script), digits, spaces and hyphens, starting
 * and ending with a letter or digit. Runs of spaces are folded to one, so "Site  lead" and "Site lead"
 * are the same name, as they look the same on screen.
 */
export const roleNameSchema = z
  .string({ message: 'validation.required' })
  .transform((s) => s.trim().replace(/\s+/g, ' '))
  .pipe(
    z
      .string()
      .min(1, { message: 'validation.required' })
      .max(ROLE_NAME_MAX, { message: 'validation.tooLong' })
      .regex(/^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N} -]*[\p{L}\p{M}\p{N}])?$/u, { message: 'roles.validation.nameFormat' }),
  );

const flag = z.boolean({ message: 'validation.invalid' }).optional();

/** One row of the matrix as a client sends it; omitted flags are false. */
export const roleActionInputSchema = z.object({
  name: z.enum(ROLE_SUBJECTS, { message: 'roles.validation.unknownModule' }),
  r_add: flag,
  r_edit: flag,
  r_view: flag,
  r_destroy: flag,
  is_revoke: flag,
  is_extend: flag,
  is_close: flag,
  is_reject: flag,
  is_approve: flag,
});
export type RoleActionInput = z.infer<typeof roleActionInputSchema>;

const roleActionsList = z
  .array(roleActionInputSchema, { message: 'validation.invalid' })
  .max(ROLE_SUBJECTS.length, { message: 'validation.tooLong' })
  .superRefine((rows, ctx) => {
    const seen = new Set<Subject>();
    rows.forEach((row, i) => {
      if (seen.has(row.name)) {
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'roles.validation.duplicateModule' });
      }
      seen.add(row.name);
      if (!isWorkflowSubject(row.name)) {
        for (const f of ROLE_WORKFLOW_FLAGS) {
          if (row[f] === true) ctx.addIssue({ code: 'custom', path: [i, f], message: 'roles.validation.notWorkflowModule' });
        }
      }
    });
  });

/**
 * POST /api/roles. Modules left out of role_actions_attributes get no rights. Flags are normalised
 * by `normalizeRoleRow` (every right implies view).
 */
export const roleCreateBody = z.object({
  name: roleNameSchema,
  is_power_user: z.boolean({ message: 'validation.invalid' }).default(false),
  grants_admin: z.boolean({ message: 'validation.invalid' }).default(false),
  role_actions_attributes: roleActionsList.default([]),
});
export type RoleCreateBody = z.infer<typeof roleCreateBody>;

/** PATCH /api/roles/{id}. Listed modules are replaced; modules left out keep their rights. */
export const roleUpdateBody = z.object({
  name: roleNameSchema.optional(),
  is_power_user: z.boolean({ message: 'validation.invalid' }).optional(),
  grants_admin: z.boolean({ message: 'validation.invalid' }).optional(),
  role_actions_attributes: roleActionsList.optional(),
});
export type RoleUpdateBody = z.infer<typeof roleUpdateBody>;

export const roleSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  is_system: z.boolean(),
  is_power_user: z.boolean(),
  grants_admin: z.boolean(),
  users_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RoleSummary = z.infer<typeof roleSummarySchema>;

const b = z.boolean();
/** One row as GET /api/roles/{id} returns it (spec 000 §3): name, key, status, flags, permit_rules. */
export const roleActionSchema = z.object({
  name: z.enum(ROLE_SUBJECTS),
  key: z.string(),
  status: z.enum(['Active', 'Inactive']),
  workflow: z.boolean(),
  r_add: b,
  r_edit: b,
  r_view: b,
  r_destroy: b,
  is_revoke: b,
  is_extend: b,
  is_close: b,
  is_reject: b,
  is_approve: b,
  permit_rules: z.array(z.object({ name: z.enum(ROLE_PERMIT_RULE_NAMES), is_allow: z.boolean() })),
});
export type RoleActionRow = z.infer<typeof roleActionSchema>;

export const roleDetailSchema = roleSummarySchema.extend({
  organization_id: z.string(),
  role_actions_attributes: z.array(roleActionSchema),
});
export type RoleDetail = z.infer<typeof roleDetailSchema>;

export const rolesListResponse = z.object({
  roles: z.array(roleSummarySchema),
  pagination: paginationSchema,
});
export type RolesListResponse = z.infer<typeof rolesListResponse>;
