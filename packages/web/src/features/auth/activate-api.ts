import { usersApi } from '@bulwark/domain';
import { bindApi } from '../../api/client.js';
import type { Services } from '../../app/services.js';

/**
 * The first password of an invited user (spec 001 §4: verified once the activation link is used). The
 * users API is a file of its own, fetched when used, so the sign-in page does not carry its schemas.
 */
export function activateAccount(services: Services, token: string, password: string) {
  return bindApi(services, usersApi).activate({ body: { token, password } }, { mode: 'plain', notify: false });
}
