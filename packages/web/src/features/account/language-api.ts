import type { Language } from '@bulwark/domain';
import { useCallback } from 'react';
import { PROFILE_KEY } from '../../app/principal.js';
import { useServices } from '../../app/services.js';
import { LANGUAGE_KEY } from '../../i18n/setup.js';

/**
 * Switches the interface at once, remembers the choice on this device and, when signed in, on the
 * account (so the server's e-mails and other devices follow). Returns whether the account was updated.
 * The account call is fetched with its first use: the sign-in page's switch never needs the users API.
 */
export function useChangeLanguage(): (language: Language) => Promise<boolean> {
  const services = useServices();
  return useCallback(
    async (language) => {
      const { i18n, storage, session, queryClient, now } = services;
      await i18n.changeLanguage(language);
      storage.setItem(LANGUAGE_KEY, language);
      if (!session.isSignedIn()) return false;
      try {
        const { saveAccountLanguage } = await import('./account-api.js');
        const profile = await saveAccountLanguage(services, language);
        queryClient.setQueryData(PROFILE_KEY, profile, { updatedAt: now() });
        session.saveProfile(profile, now());
        return true;
      } catch {
        return false; // The HTTP client has already shown the error; the local choice stands.
      }
    },
    [services],
  );
}
