import { can } from '@bulwark/domain';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';

/**
 * What the signed-in user may do with interactions: the Observation rights the server checks
 * (create, update, delete), and who they are (an observer edits their own with create alone).
 */
export function useSiRights() {
  const profile = useProfile();
  const access = profile ? principalFromProfile(profile).access : null;
  return {
    userId: profile?.user.id ?? null,
    create: access ? can(access, 'Observation', 'create') : false,
    update: access ? can(access, 'Observation', 'update') : false,
    remove: access ? can(access, 'Observation', 'delete') : false,
  };
}
