import { profileResponse, usersApi, type ProfileResponse } from '@bulwark/domain';
import { bindApi } from '../api/client.js';
import type { Services } from './services.js';

export { PROFILE_KEY, principalFromProfile, profileEndsSession } from './principal.js';

/** What loading the profile needs of the app's services. */
export type ProfileServices = Pick<Services, 'http' | 'session' | 'i18n' | 'location' | 'now'>;

/** Loads the signed-in profile (GET /api/users/user_profile), checks its shape and keeps it for this device. */
export async function loadProfile(services: ProfileServices): Promise<ProfileResponse> {
  const profile = profileResponse.parse(await bindApi(services, usersApi).profile());
  services.session.saveProfile(profile, services.now());
  return profile;
}
