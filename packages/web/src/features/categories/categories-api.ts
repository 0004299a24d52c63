import { can, type Action, type Subject } from '@bulwark/domain';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';

/** Query keys of the categories and why-analysis screens; a write invalidates the whole family. */
export const CATEGORIES_KEY = ['categories'] as const;
export const categoryKey = (id: string) => [...CATEGORIES_KEY, 'one', id] as const;
export const CATEGORY_TYPES_KEY = [...CATEGORIES_KEY, 'types'] as const;
export const ROOT_CAUSES_KEY = ['root_cause_settings'] as const;
export const rootCauseKey = (id: string) => [...ROOT_CAUSES_KEY, 'one', id] as const;

/** Whether the signed-in user may take this action: the same `can()` as the server's guard. */
export function useRight(subject: Subject, action: Action): boolean {
  const profile = useProfile();
  return profile ? can(principalFromProfile(profile).access, subject, action) : false;
}
