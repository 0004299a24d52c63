import { z } from 'zod';
import { ORGANIZATION_STATUSES, SUBSCRIPTION_TYPES } from '../auth/schemas.js';

/** `?sub_domain=` of the sign-in finder on the bare domain. */
export const organizationLookupQuery = z.object({
  sub_domain: z.string().trim().toLowerCase().min(1, { message: 'validation.required' }).max(63),
});
export const organizationLookupResponse = z.object({ found: z.boolean() });
export type OrganizationLookupResponse = z.infer<typeof organizationLookupResponse>;

/** A customer organisation as the platform admin sees it. */
export const platformOrganizationSchema = z.object({
  id: z.string(),
  name: z.string(),
  sub_domain_name: z.string(),
  organization_status: z.enum(ORGANIZATION_STATUSES),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  is_enterprise: z.boolean(),
  trial_ends_at: z.string().nullable(),
  created_at: z.string(),
  /** Bytes the organisation may store, bytes its records hold, and bytes of guests' uploads awaiting a report. */
  storage_quota_bytes: z.number(),
  storage_used_bytes: z.number(),
  storage_pending_bytes: z.number(),
});
export type PlatformOrganization = z.infer<typeof platformOrganizationSchema>;

export const platformOrganizationListResponse = z.object({ organizations: z.array(platformOrganizationSchema) });
export type PlatformOrganizationList = z.infer<typeof platformOrganizationListResponse>;

export const platformOrganizationUpdateBody = z.object({
  organization_status: z.enum(ORGANIZATION_STATUSES).optional(),
  subscription_type: z.enum(SUBSCRIPTION_TYPES).optional(),
});
export type PlatformOrganizationUpdateBody = z.infer<typeof platformOrganizationUpdateBody>;
