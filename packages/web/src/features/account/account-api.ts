import { sessionApi, usersApi, type Language, type PasswordChangeBody, type ProfileResponse } from '@bulwark/domain';
import { isApiError } from '../../api/api-error.js';
import { bindApi } from '../../api/client.js';
import { useApi } from '../../api/use-api.js';
import { useServices, type Services } from '../../app/services.js';

/** The account's language (the switch's second half, language-api.ts, loads this file when signed in). */
export function saveAccountLanguage(services: Services, language: Language): Promise<ProfileResponse> {
  return bindApi(services, usersApi).updateProfile({ body: { locale: language } });
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
