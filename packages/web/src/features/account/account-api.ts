import { sessionApi, usersApi, type Language, type PasswordChangeBody } from '@bulwark/domain';
import { useCallback } from 'react';
import { isApiError } from '../../api/api-error.js';
import { useApi } from '../../api/use-api.js';
import { PROFILE_KEY } from '../../app/profile.js';
import { useServices } from '../../app/services.js';
import { LANGUAGE_KEY } from '../../i18n/setup.js';

/**
 * Switches the interface at once, remembers the choice on this device and, when signed in, on the
 * account (so the server's e-mails and other devices follow). Returns whether the account was updated.
 */
export function useChangeLanguage(): (language: Language) => Promise<boolean> {
  const { i18n, storage, session, queryClient, now } = useServices();
  const api = useApi(usersApi);
  return useCallback(
    async (language) => {
      await i18n.changeLanguage(language);
      storage.setItem(LANGUAGE_KEY, language);
      if (!session.isSignedIn()) return false;
      try {
        const profile = await api.updateProfile({ body: { locale: language } });
        queryClient.setQueryData(PROFILE_KEY, profile, { updatedAt: now() });
        session.saveProfile(profile, now());
        return true;
      } catch {
        return false; // The HTTP client has already shown the error; the local choice stands.
      }
    },
    [i18n, storage, session, api, queryClient, now],
  );
}

/**
 * A signed-in user's own password change. A wrong current password answers 401 on purpose (the code
 * incorrect_password); the secured client would take any 401 for an expired session, so this call is
 * plain and refreshes only on a real expiry.
 */
export function useChangePassword(): (body: PasswordChangeBody) => Promise<void> {
  const { http } = useServices();
  const api = useApi(sessionApi);
  return async (body) => {
    const send = () => api.changePassword({ body }, { mode: 'plain', notify: false });
    try {
      await send();
    } catch (error) {
      if (isApiError(error) && error.code === 'session_expired' && (await http.refresh())) {
        await send();
        return;
      }
      throw error;
    }
  };
}
