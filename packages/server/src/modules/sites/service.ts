/**
 * The sites module's service, one file per area: sites, their divisions, departments and units, the
 * people of the sites (pickers, heads of safety, user-site membership) and the monthly manpower. Other
 * modules call these in their own transaction; they read the tables through `read.ts`.
 */
export { allSites, createSite, getSite, listSites, updateSite, type SiteListFilter } from './sites.js';
export { createNode, deleteNode, siteData, siteFullNames, siteTree, updateNode, type NodeInput } from './divisions.js';
export { activeSitesOfUser, headsOfSafety, listUserSiteIds, setUserSites, userIdsAtSites, userOptions } from './people.js';
export { getManpower, setManpower, siteManpowerFor } from './manpower.js';
