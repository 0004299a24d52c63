import { defineApi } from '../api/contract.js';
import { fileResponse, idParams, okResponse } from '../api/shared.js';
import { profileResponse, updateMyProfileBody } from '../auth/schemas.js';
import {
  importResultResponse,
  licenceBody,
  licenceCountsResponse,
  licenceParams,
  moduleAtSiteQuery,
  moduleBasedUsersResponse,
  myLicencesResponse,
  resendActivationResponse,
  roleWiseUsersResponse,
  siteIdParams,
  sitesQuery,
  userActivateBody,
  userBriefListResponse,
  userFormOptionsResponse,
  userInviteBody,
  userListQuery,
  userListResponse,
  userPermissionsResponse,
  userSchema,
  userUpdateBody,
} from './schemas.js';

const session = { session: true } as const;
const admin = { admin: true } as const;
const read = { subject: 'User', action: 'read' } as const;
const create = { subject: 'User', action: 'create' } as const;
const update = { subject: 'User', action: 'update' } as const;

/**
 * Users (spec 000 §7, spec 001 §2 Settings/users, §6, §9): the signed-in profile, the administration
 * of the organisation's users (invitations, activation, edits, photo, licences, Excel import and
 * export) and the groups of active users the pickers of other modules offer.
 */
export const usersApi = defineApi('users', {
  // --- The signed-in user's own profile (spec 000 §7) ------------------------------------------------
  profile: {
    method: 'GET',
    path: '/api/users/user_profile',
    access: session,
    summary: 'The signed-in user, organisation, rules and modules',
    response: profileResponse,
    guests: 'personal',
  },
  profileV2: {
    method: 'GET',
    path: '/api/v2/users/user_profile',
    access: session,
    summary: 'The signed-in user, organisation, rules and modules',
    response: profileResponse,
    guests: 'personal',
  },
  updateProfile: {
    method: 'PATCH',
    path: '/api/users/user_profile',
    access: session,
    summary: 'Change the signed-in user’s own language',
    body: updateMyProfileBody,
    response: profileResponse,
    guests: 'personal',
    allowedWhenStorageFull: true,
  },

  // --- The list and the groups of people ------------------------------------------------------------
  list: {
    method: 'GET',
    path: '/api/users',
    access: read,
    summary: 'Users of the organisation (search, status, role, site, verified; export_to_excel for a workbook)',
    query: userListQuery,
    response: userListResponse,
    file: 'on_export',
  },
  allActive: {
    method: 'GET',
    path: '/api/users/all_active_users',
    access: session,
    summary: 'Every active user (for pickers)',
    description: 'Needs User read, or Action read or create, or Observation, Incident or Audit read (the screens that assign actions).',
    response: userBriefListResponse,
  },
  siTrained: {
    method: 'GET',
    path: '/api/users/users_with_si_trained',
    access: session,
    summary: 'Active users trained for safety interactions',
    description: 'Needs User read, or Observation read or create (safety interactions are written under the Observation rights).',
    response: userBriefListResponse,
  },
  moduleBased: {
    method: 'GET',
    path: '/api/users/module_based_users',
    access: session,
    summary: 'Active users whose role reads User, Permit, Incident, Audit',
    description: 'Needs User read, or Permit, Incident or Audit read.',
    response: moduleBasedUsersResponse,
  },
  roleWise: {
    method: 'GET',
    path: '/api/v2/sites/role_wise_users',
    // The staff list by role: for whoever may read users.
    access: read,
    summary: 'Active users grouped by role',
    response: roleWiseUsersResponse,
  },
  moduleAtSite: {
    method: 'GET',
    path: '/api/individual_module_site_based_all_users',
    access: session,
    summary: 'Active users of a site whose role reads the module',
    description: 'Needs User read, or read on the asked module.',
    query: moduleAtSiteQuery,
    response: userBriefListResponse,
  },
  siteModuleBased: {
    method: 'GET',
    path: '/api/site_based_module_based_users/:site_id',
    access: session,
    summary: 'Module-based users of one site',
    description: 'Needs User read, or Permit, Incident or Audit read.',
    params: siteIdParams,
    response: moduleBasedUsersResponse,
  },
  sitesModuleBased: {
    method: 'GET',
    path: '/api/site_based_module_based_users',
    access: session,
    summary: 'Module-based users of several sites (sites[]=...)',
    description: 'Needs User read, or Permit, Incident or Audit read.',
    query: sitesQuery,
    response: moduleBasedUsersResponse,
  },

  // --- Licences -------------------------------------------------------------------------------------
  licences: {
    method: 'GET',
    path: '/api/users/licences',
    access: admin,
    summary: 'Licences used and unassigned per module',
    response: licenceCountsResponse,
  },
  myLicences: {
    method: 'GET',
    path: '/api/users/licences/mine',
    access: session,
    summary: 'The modules the signed-in user holds a licence for',
    response: myLicencesResponse,
    guests: 'personal',
  },
  assignLicence: {
    method: 'POST',
    path: '/api/users/licences',
    access: admin,
    summary: 'Give a user a licence for a module',
    body: licenceBody,
    response: licenceCountsResponse,
    refusals: [404, 409],
  },
  unassignLicence: {
    method: 'DELETE',
    path: '/api/users/licences/:user_id/:module',
    access: admin,
    summary: 'Take a module licence back from a user',
    params: licenceParams,
    response: licenceCountsResponse,
  },

  // --- Bulk import from Excel -------------------------------------------------------------------------
  importTemplate: {
    method: 'GET',
    path: '/api/users/import_template',
    access: create,
    summary: 'The Excel template of the bulk import',
    response: fileResponse,
    file: 'always',
  },
  import: {
    method: 'POST',
    path: '/api/users/import',
    access: create,
    summary:
      'Invite every user of an Excel sheet, or none when any row is wrong (multipart field "file"); errors name the row and column (`rows` of the 400 answer)',
    upload: 'workbook',
    response: importResultResponse,
  },

  // --- Activation (public: the invited person has no session yet) -------------------------------------
  activate: {
    method: 'POST',
    path: '/api/users/activate',
    access: { public: true },
    summary: 'Set the password through the e-mailed activation link (single use, 7 days)',
    body: userActivateBody,
    response: okResponse,
    refusals: [404, 410, 429],
  },

  // --- Administration (spec 001 §2 Settings/users) ----------------------------------------------------
  formOptions: {
    method: 'GET',
    path: '/api/users/form_options',
    access: read,
    summary: 'Roles and active sites the user forms offer',
    response: userFormOptionsResponse,
  },
  permissions: {
    method: 'GET',
    path: '/api/users/:id/permissions',
    access: read,
    summary: 'The user’s role matrix (read-only) and special rights',
    params: idParams,
    response: userPermissionsResponse,
  },
  invite: {
    method: 'POST',
    path: '/api/users',
    access: create,
    summary: 'Invite a user by e-mail (activation link valid 7 days)',
    body: userInviteBody,
    response: userSchema,
    status: 201,
    refusals: [409],
  },
  get: {
    method: 'GET',
    path: '/api/users/:id',
    access: read,
    summary: 'One user',
    params: idParams,
    response: userSchema,
  },
  update: {
    method: 'PATCH',
    path: '/api/users/:id',
    access: update,
    summary: 'Change a user’s fields, rights or status (Active/Inactive)',
    params: idParams,
    body: userUpdateBody,
    response: userSchema,
    refusals: [409],
  },
  resendActivation: {
    method: 'POST',
    path: '/api/users/:id/resend_activation',
    access: create,
    summary: 'Send a new activation link to a user who has not activated yet',
    params: idParams,
    response: resendActivationResponse,
    refusals: [409],
  },
  uploadPhoto: {
    method: 'POST',
    path: '/api/users/:id/photo',
    access: update,
    summary: 'Set the user’s photo (JPEG or PNG under 500 KB; multipart field "file")',
    params: idParams,
    upload: 'photo',
    response: userSchema,
  },
});
