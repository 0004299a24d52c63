import { profileResponse, usersApi, type Principal, type ProfileResponse } from '@bulwark/domain';
import { bindApi } from '../api/client.js';
import type { Services } from './services.js';

export const PROFILE_KEY = ['profile'] as const;

/** What loading the profile needs of the app's services. */
export type ProfileServices = Pick<Services, 'http' | 'session' | 'i18n' | 'location' | 'now'>;

/** Loads the signed-in profile (GET /api/users/user_profile), checks its shape and keeps it for this device. */
export async function loadProfile(services: ProfileServices): Promise<ProfileResponse> {
  const profile = profileResponse.parse(await bindApi(services, usersApi).profile());
  services.session.saveProfile(profile, services.now());
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
