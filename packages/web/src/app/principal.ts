import type { Principal, ProfileResponse } from '@bulwark/domain';

/**
 * What the entry needs to know of a profile, without the users API that loads one (profile.ts): the
 * route guard and the sign-in page must not pull the user schemas (and libphonenumber) into the first load.
 */
export const PROFILE_KEY = ['profile'] as const;

export function principalFromProfile(profile: ProfileResponse): Principal {
  const { user, organization, rules } = profile;
  return {
    access: {
      rules,
      isPlatformAdmin: user.is_platform_admin,
      memExhausted: user.tenant_memory_details.mem_exhausted,
      subscriptionType: organization?.subscription_type ?? null,
      trialExpired: organization?.trial_expired ?? false,
      licences: user.licences,
    },
    isAdmin: user.is_admin,
    canIssuePermit: user.can_issue_permit,
    onboardingPending: organization?.onboarding_pending ?? false,
    hiraV2Allowed: user.hira_v2_allowed,
    isGuest: user.is_guest,
  };
}

/** Spec 000 §4: these profiles end the session. */
export function profileEndsSession(profile: ProfileResponse): boolean {
  return profile.user.status === 'Inactive' || profile.user.status === 'Error' || profile.organization?.organization_status === 'Inactive';
}
