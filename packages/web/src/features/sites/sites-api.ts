import type { SiteUserSummary } from '@bulwark/domain';

/** Query keys of the sites screens; a write invalidates `SITES_KEY` and everything under it. */
export const SITES_KEY = ['sites'] as const;
export const siteKey = (id: string) => [...SITES_KEY, 'one', id] as const;
export const treeKey = (id: string) => [...SITES_KEY, 'tree', id] as const;
export const manpowerKey = (year: number) => [...SITES_KEY, 'manpower', year] as const;
export const userOptionsKey = (search: string) => [...SITES_KEY, 'user-options', search] as const;

export type UserOptionsResponse = { users: SiteUserSummary[] };

/** A person as a picker shows them: the name, and the e-mail to tell namesakes apart. */
export function userLabel(u: SiteUserSummary): string {
  return u.full_name && u.full_name !== u.email ? `${u.full_name} (${u.email})` : u.email;
}
