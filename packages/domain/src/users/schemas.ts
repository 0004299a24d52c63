import { isValidPhoneNumber } from 'libphonenumber-js';
import { z } from 'zod';
import { exportFlag, importRowErrorSchema, listEnvelope, listQuery } from '../api/shared.js';
import { emailSchema, passwordSchema } from '../auth/password.js';
import { LICENCE_MODULES } from './licences.js';

/** Spec 001 §9. */
export const USER_GENDERS = ['male', 'female', 'others'] as const;
export type UserGender = (typeof USER_GENDERS)[number];
export const USER_SHIFTS = ['first', 'second', 'third', 'general'] as const;
export type UserShift = (typeof USER_SHIFTS)[number];
/** What an administrator may set; Error and Deleted are the platform's. */
export const USER_EDITABLE_STATUSES = ['Active', 'Inactive'] as const;

export { LICENCE_MODULES, type LicenceModule } from './licences.js';

/** An activation link is valid for seven days and can be used once. */
export const USER_ACTIVATION_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Rows one import may hold. */
export const USER_IMPORT_MAX_ROWS = 500;

/** Letters of any script, with the spaces, dots, apostrophes and hyphens names carry ("Mary-Jo O'Neil"). */
const NAME = /^\p{L}[\p{L}\p{M} .'’-]*$/u;
const EMPLOYEE_ID = /^[A-Za-z0-9][A-Za-z0-9 ._/-]*$/;

export const userNameSchema = z
  .string({ message: 'validation.required' })
  .trim()
  .min(1, { message: 'validation.required' })
  .max(100, { message: 'validation.tooLong' })
  .regex(NAME, { message: 'users.validation.nameLetters' });

/** International form ("+44 20 7946 0958"); libphonenumber decides whether the number can exist. */
export const userPhoneSchema = z
  .string()
  .trim()
  .max(30, { message: 'validation.tooLong' })
  .refine((v) => v === '' || isValidPhoneNumber(v), { message: 'users.validation.phone' })
  .transform((v) => (v === '' ? null : v));

export const employeeIdSchema = z
  .string()
  .trim()
  .max(50, { message: 'validation.tooLong' })
  .refine((v) => v === '' || EMPLOYEE_ID.test(v), { message: 'users.validation.employeeId' })
  .transform((v) => (v === '' ? null : v));

const uuid = z.uuid({ message: 'validation.invalid' });

/** POST /api/users: an invitation. The user gets no password; the e-mailed link sets it. */
export const userInviteBody = z.object({
  email: emailSchema,
  full_name: userNameSchema,
  employee_id: employeeIdSchema.optional(),
  phone: userPhoneSchema.optional(),
  gender: z.enum(USER_GENDERS, { message: 'validation.invalid' }).nullable().optional(),
  shift: z.enum(USER_SHIFTS, { message: 'validation.invalid' }).nullable().optional(),
  role_id: z.uuid({ message: 'users.validation.roleRequired' }),
  site_ids: z.array(uuid).max(500).default([]),
  is_admin: z.boolean().default(false),
  can_issue_permit: z.boolean().default(false),
  si_trained: z.boolean().default(false),
});
export type UserInviteBody = z.input<typeof userInviteBody>;

/** PATCH /api/users/{id}: any subset; the e-mail is the identity and does not change. */
export const userUpdateBody = z.object({
  full_name: userNameSchema.optional(),
  employee_id: employeeIdSchema.optional(),
  phone: userPhoneSchema.optional(),
  gender: z.enum(USER_GENDERS, { message: 'validation.invalid' }).nullable().optional(),
  shift: z.enum(USER_SHIFTS, { message: 'validation.invalid' }).nullable().optional(),
  role_id: z.uuid({ message: 'users.validation.roleRequired' }).optional(),
  site_ids: z.array(uuid).max(500).optional(),
  status: z.enum(USER_EDITABLE_STATUSES, { message: 'validation.invalid' }).optional(),
  is_admin: z.boolean().optional(),
  can_issue_permit: z.boolean().optional(),
  si_trained: z.boolean().optional(),
});
export type UserUpdateBody = z.input<typeof userUpdateBody>;

/** POST /api/users/activate: the token of the e-mailed link and the chosen password. */
export const userActivateBody = z.object({
  token: z.string().min(10, { message: 'validation.invalid' }).max(200, { message: 'validation.invalid' }),
  password: passwordSchema,
});

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  full_name: z.string(),
  employee_id: z.string().nullable(),
  phone: z.string().nullable(),
  gender: z.enum(USER_GENDERS).nullable(),
  shift: z.enum(USER_SHIFTS).nullable(),
  role_id: z.string().nullable(),
  role_name: z.string().nullable(),
  site_ids: z.array(z.string()),
  status: z.enum(['Active', 'Inactive', 'Error', 'Deleted']),
  is_admin: z.boolean(),
  /** An administrator by the admin flag or by a role that grants admin access (whatever the status). */
  admin_access: z.boolean(),
  /** The organisation's only active administrator: nobody may demote or deactivate them. */
  last_admin: z.boolean(),
  can_issue_permit: z.boolean(),
  si_trained: z.boolean(),
  verified: z.boolean(),
  photo_url: z.string().nullable(),
  licences: z.array(z.enum(LICENCE_MODULES)),
  invited_at: z.string().nullable(),
  created_at: z.string(),
});
export type UserRecord = z.infer<typeof userSchema>;

/** A short form for pickers and groupings. */
export const userBriefSchema = z.object({
  id: z.string(),
  full_name: z.string(),
  email: z.string(),
  employee_id: z.string().nullable(),
  role_name: z.string().nullable(),
});
export type UserBrief = z.infer<typeof userBriefSchema>;

/** GET /api/users filters (besides page, per_page, search). */
export const userListFilters = z.object({
  status: z.enum(USER_EDITABLE_STATUSES, { message: 'validation.invalid' }).optional(),
  role: uuid.optional(),
  site: uuid.optional(),
  verified: z.enum(['true', 'false'], { message: 'validation.invalid' }).optional(),
});

/** GET /api/users: a page of users (search, filters) or, with export_to_excel=true, the filtered rows as a workbook. */
export const userListQuery = listQuery.extend(userListFilters.shape).extend(exportFlag.shape);
export const userListResponse = listEnvelope('users', userSchema);
export type UserListResponse = z.infer<typeof userListResponse>;

/** Pickers: active users in their short form. */
export const userBriefListResponse = z.object({ users: z.array(userBriefSchema) });
export type UserBriefList = z.infer<typeof userBriefListResponse>;

/** GET /api/individual_module_site_based_all_users: the module whose readers are wanted, optionally at one site. */
export const moduleAtSiteQuery = z.object({
  module: z.enum(LICENCE_MODULES, { message: 'validation.invalid' }),
  site: uuid.optional(),
});

/** GET /api/site_based_module_based_users/{site_id}. */
export const siteIdParams = z.object({ site_id: uuid });

const siteIdOrIds = z.union([uuid, z.array(uuid).max(500)]);
/** GET /api/site_based_module_based_users?sites[]=…: one or several sites, by either spelling of the key. */
export const sitesQuery = z.object({ 'sites[]': siteIdOrIds.optional(), sites: siteIdOrIds.optional() });

/** POST /api/users/{id}/resend_activation: where the new link went. */
export const resendActivationResponse = z.object({ email: z.string() });

/** GET /api/users/module_based_users (spec 000 §3: users, permit_users, inci_users, audit_users). */
export const moduleBasedUsersResponse = z.object({
  users: z.array(userBriefSchema),
  permit_users: z.array(userBriefSchema),
  inci_users: z.array(userBriefSchema),
  audit_users: z.array(userBriefSchema),
});
export type ModuleBasedUsers = z.infer<typeof moduleBasedUsersResponse>;

/** GET /api/v2/sites/role_wise_users: active users grouped by role. */
export const roleWiseUsersResponse = z.object({
  roles: z.array(z.object({ role_id: z.string().nullable(), role_name: z.string().nullable(), users: z.array(userBriefSchema) })),
});
export type RoleWiseUsers = z.infer<typeof roleWiseUsersResponse>;

export const licenceBody = z.object({
  user_id: uuid,
  module: z.enum(LICENCE_MODULES, { message: 'validation.invalid' }),
});

/** DELETE /api/users/licences/{user_id}/{module}. */
export const licenceParams = z.object({
  user_id: uuid,
  module: z.enum(LICENCE_MODULES, { message: 'validation.invalid' }),
});

/** GET /api/users/licences/mine: the modules the signed-in user holds a licence for. */
export const myLicencesResponse = z.object({ modules: z.array(z.enum(LICENCE_MODULES)), is_admin: z.boolean() });
export type MyLicences = z.infer<typeof myLicencesResponse>;

export const licenceCountSchema = z.object({
  module: z.enum(LICENCE_MODULES),
  used: z.number(),
  unassigned: z.number(),
  total: z.number(),
});
export const licenceCountsResponse = z.object({ user_limit: z.number(), active_users: z.number(), modules: z.array(licenceCountSchema) });
export type LicenceCounts = z.infer<typeof licenceCountsResponse>;

/** One refusal of a bulk import: the sheet row, the column, the translated text. */
export const importResultResponse = z.object({ imported: z.number(), errors: z.array(importRowErrorSchema) });
export type ImportResult = z.infer<typeof importResultResponse>;

/** Columns of the import template, in order; the header texts are these keys. */
export const USER_IMPORT_COLUMNS = ['email', 'full_name', 'employee_id', 'phone', 'gender', 'shift', 'role', 'sites'] as const;
export type UserImportColumn = (typeof USER_IMPORT_COLUMNS)[number];

/** One sheet row, before the role and site names are resolved. Sites are separated by ";" or ",". */
export const userImportRowSchema = z.object({
  email: emailSchema,
  full_name: userNameSchema,
  employee_id: employeeIdSchema,
  phone: userPhoneSchema,
  gender: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => v === '' || (USER_GENDERS as readonly string[]).includes(v), { message: 'users.validation.gender' })
    .transform((v) => (v === '' ? null : (v as UserGender))),
  shift: z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => v === '' || (USER_SHIFTS as readonly string[]).includes(v), { message: 'users.validation.shift' })
    .transform((v) => (v === '' ? null : (v as UserShift))),
  role: z.string().trim().min(1, { message: 'users.validation.roleRequired' }).max(100, { message: 'validation.tooLong' }),
  sites: z
    .string()
    .trim()
    .max(2000, { message: 'validation.tooLong' })
    .transform((v) =>
      v
        .split(/[;,]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
});
export type UserImportRow = z.infer<typeof userImportRowSchema>;

/** What the server works with once the bodies are parsed (defaults applied, blanks turned to null). */
export type UserInviteInput = z.output<typeof userInviteBody>;
export type UserUpdateInput = z.output<typeof userUpdateBody>;

/** GET /api/users/form_options: what the invite and profile forms offer. */
export const userFormOptionsResponse = z.object({
  roles: z.array(z.object({ id: z.string(), name: z.string(), grants_admin: z.boolean() })),
  sites: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type UserFormOptions = z.infer<typeof userFormOptionsResponse>;

/** GET /api/users/{id}/permissions: the user's role matrix, read-only. */
export const userPermissionsResponse = z.object({
  user: z.object({ id: z.string(), full_name: z.string(), is_admin: z.boolean(), can_issue_permit: z.boolean() }),
  role: z.object({ id: z.string(), name: z.string() }).nullable(),
  matrix: z.array(
    z.object({
      subject: z.string(),
      read: z.boolean(),
      create: z.boolean(),
      update: z.boolean(),
      delete: z.boolean(),
      workflow: z.array(z.enum(['revoke', 'extend', 'close', 'reject', 'approve'])).nullable(),
    }),
  ),
});
export type UserPermissions = z.infer<typeof userPermissionsResponse>;
