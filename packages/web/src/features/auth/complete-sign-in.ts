import type { Principal, SignInResponse } from '@bulwark/domain';
import { principalFromProfile, PROFILE_KEY } from '../../app/principal.js';
import type { Services } from '../../app/services.js';
import { currentLanguage, LANGUAGE_KEY } from '../../i18n/setup.js';

/** Stores the new session and its profile, and takes on the account's language. */
export function completeSignIn(services: Services, response: SignInResponse): Principal {
  const now = services.now();
  services.session.saveTokens(response);
  services.session.saveProfile(response.profile, now);
  services.queryClient.setQueryData(PROFILE_KEY, response.profile, { updatedAt: now });
  const locale = response.profile.user.locale;
  if (locale !== currentLanguage(services.i18n)) {
    void services.i18n.changeLanguage(locale);
    services.storage.setItem(LANGUAGE_KEY, locale);
  }
  return principalFromProfile(response.profile);
}
