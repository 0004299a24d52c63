import { z } from 'zod';
import { isSiteTimeZone } from '../sites/time-zones.js';
import type { RoleActionInput } from '../roles/schemas.js';

/**
 * The forced set-up wizard of spec 000 §2 (/onboarding): time zone, first site, head of safety, user
 * roles, invite users. The first four must be done before the organisation can finish; inviting can
 * be skipped (the admin may invite later from /users).
 */
export const ONBOARDING_STEPS = ['timezone', 'site', 'headOfSafety', 'roles', 'invite'] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];
export const REQUIRED_ONBOARDING_STEPS: readonly OnboardingStep[] = ['timezone', 'site', 'headOfSafety', 'roles'];

export const onboardingTimezoneBody = z.object({
  timezone: z
    .string({ message: 'onboarding.validation.timezone' })
    .trim()
    .min(1, { message: 'onboarding.validation.timezone' })
    .refine(isSiteTimeZone, { message: 'onboarding.validation.timezone' }),
});

/** Steps the admin confirms by hand (they leave no record of their own). */
export const CONFIRMED_ONBOARDING_STEPS = ['headOfSafety', 'invite'] as const;
export const onboardingStepParams = z.object({ step: z.enum(CONFIRMED_ONBOARDING_STEPS, { message: 'validation.invalid' }) });

export const onboardingStatusSchema = z.object({
  pending: z.boolean(),
  timezone: z.string(),
  steps: z.object({
    timezone: z.boolean(),
    site: z.boolean(),
    headOfSafety: z.boolean(),
    roles: z.boolean(),
    invite: z.boolean(),
  }),
  /** The first step still to do, or null when every required one is done. */
  next: z.enum(ONBOARDING_STEPS).nullable(),
});
export type OnboardingStatus = z.infer<typeof onboardingStatusSchema>;

export function nextOnboardingStep(steps: OnboardingStatus['steps']): OnboardingStep | null {
  return ONBOARDING_STEPS.find((s) => !steps[s]) ?? null;
}

export function missingOnboardingSteps(steps: OnboardingStatus['steps']): OnboardingStep[] {
  return REQUIRED_ONBOARDING_STEPS.filter((s) => !steps[s]);
}

const view = { r_view: true };
const write = { r_view: true, r_add: true, r_edit: true };

/**
 * Role templates offered in the wizard, as a safety team usually starts: each is a plain role the admin
 * can change later in /roles.
 */
export const ONBOARDING_ROLE_PRESETS: Record<'safetyManager' | 'siteSupervisor' | 'employee' | 'contractor', RoleActionInput[]> = {
  safetyManager: [
    { name: 'User', ...view },
    { name: 'Site', ...write },
    { name: 'Category', ...write },
    { name: 'RC Master', ...write },
    { name: 'WorkFlow', ...write },
    { name: 'Library', ...write },
    { name: 'HIRA', ...write },
    { name: 'Observation', ...write, r_destroy: true, is_close: true, is_approve: true, is_reject: true },
    { name: 'Incident', ...write, is_close: true, is_approve: true, is_reject: true },
    { name: 'Action', ...write },
    { name: 'Audit', ...write, is_close: true, is_approve: true, is_reject: true },
    { name: 'Permit', ...write, is_approve: true, is_reject: true, is_revoke: true, is_extend: true, is_close: true },
  ],
  siteSupervisor: [
    { name: 'Site', ...view },
    { name: 'Library', ...view },
    { name: 'HIRA', ...view },
    { name: 'Observation', ...write, is_close: true },
    { name: 'Incident', ...write },
    { name: 'Action', ...write },
    { name: 'Audit', ...write },
    { name: 'Permit', ...write, is_approve: true, is_reject: true, is_close: true },
  ],
  employee: [
    { name: 'Library', ...view },
    { name: 'Observation', ...write },
    { name: 'Incident', r_view: true, r_add: true },
    { name: 'Action', ...write },
  ],
  contractor: [
    { name: 'Observation', r_view: true, r_add: true },
    { name: 'Permit', r_view: true, r_add: true },
    { name: 'Action', ...view },
  ],
};
export type OnboardingRolePreset = keyof typeof ONBOARDING_ROLE_PRESETS;
