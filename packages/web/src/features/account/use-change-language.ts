import type { Language, ProfileResponse } from '@bulwark/domain';
import { useCallback } from 'react';
import { PROFILE_KEY } from '../../app/profile.js';
import { useServices } from '../../app/services.js';
import { LANGUAGE_KEY } from '../../i18n/setup.js';

/**
 * Switches the interface at once, remembers the choice on this device and, when signed in, on the
 * account (so the server's e-mails and other devices follow). Returns whether the account was updated.
 */
export function useChangeLanguage(): (language: Language) => Promise<boolean> {
  const { i18n, storage, session, http, queryClient, now } = useServices();
  return useCallback(
    async (language) => {
      await i18n.changeLanguage(language);
      storage.setItem(LANGUAGE_KEY, language);
      if (!session.isSignedIn()) return false;
      try {
        const profile = await http.patch<ProfileResponse>('/api/users/user_profile', { locale: language });
        if (profile) {
          queryClient.setQueryData(PROFILE_KEY, profile, { updatedAt: now() });
          session.saveProfile(profile, now());
        }
        return true;
      } catch {
        return false; // The HTTP client has already shown the error; the local choice stands.
      }
    },
    [i18n, storage, session, http, queryClient, now],
  );
}
