/**
 * What other modules may read of the sites module: its tables, to join in their own queries (a site's
 * name and time zone on an observation, an area of a site). Other modules never write them; sites,
 * areas and their people change only through this module's service. A lint rule holds every other
 * module to this file instead of `tables.ts`.
 */
export { siteNodes, sites } from './tables.js';
