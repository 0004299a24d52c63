import { can, type Action } from '@bulwark/domain';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';

/** Whether the signed-in user may take a Site action: the same `can()` as the server's guard. */
export function useSiteRight(action: Action): boolean {
  const profile = useProfile();
  return profile ? can(principalFromProfile(profile).access, 'Site', action) : false;
}
