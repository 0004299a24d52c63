import type { Tx } from '../../platform/db/db.js';

/**
 * What the users module needs from the sites module, in one place. Users never read the sites tables
 * themselves; module.ts hands in the sites service's functions.
 */
export type UserSiteLinks = {
  /** The ids of the sites the user is assigned to. */
  listUserSiteIds: (tx: Tx, userId: string) => Promise<string[]>;
  /** Replaces the user's sites; refuses an id that is not a site of the organisation. */
  setUserSites: (tx: Tx, userId: string, siteIds: string[]) => Promise<void>;
  /** Ids of the users assigned to any of these sites. */
  userIdsAtSites: (tx: Tx, siteIds: string[]) => Promise<string[]>;
  /** The organisation's sites by lower-case name (for the Excel import, which names sites). */
  siteIdsByName: (tx: Tx) => Promise<Map<string, string>>;
};
