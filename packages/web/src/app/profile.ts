import { profileResponse, type Principal, type ProfileResponse } from '@bulwark/domain';
import type { HttpClient } from '../api/http.js';
import type { SessionStore } from '../api/session-store.js';

export const PROFILE_KEY = ['profile'] as const;
export const PROFILE_PATH = '/api/users/user_profile';

export async function loadProfile(http: HttpClient, session: SessionStore, now: () => number): Promise<ProfileResponse> {
  const profile = profileResponse.parse(await http.get<unknown>(PROFILE_PATH));
  session.saveProfile(profile, now());
  return profile;
}

export function principalFromProfile(profile: ProfileResponse): Principal {
  const { user, organization, rules } = profile;
  return {
    access: {
      rules,
      isPlatformAdmin: user.is_platform_admin,
      memExhausted: user.tenant_memory_details.mem_exhausted,
      subscriptionType: organization?.subscription_type ?? null,
      trialExpired: organization?.trial_expired ?? false,
    },
    isAdmin: user.is_admin,
    canIssuePermit: user.can_issue_permit,
    onboardingPending: organization?.onboarding_pending ?? false,
    hiraV2Allowed: user.hira_v2_allowed,
  };
}

/** Spec 000 §4: these profiles end the session. */
export function profileEndsSession(profile: ProfileResponse): boolean {
  return profile.user.status === 'Inactive' || profile.user.status === 'Error' || profile.organization?.organization_status === 'Inactive';
}
