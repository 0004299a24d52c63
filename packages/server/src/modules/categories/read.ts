/**
 * What other modules may read of the categories module: its tables, to join in their own queries (an
 * observation's or an action's category and sub-category). Other modules never write them. A lint rule
 * holds every other module to this file instead of `tables.ts`.
 */
export { categories, subCategories } from './tables.js';
/** The root causes an investigation may pick (active leaves of the tree, with their path): incidents' why-why analysis. */
export { phenomenaRootCauses } from './root-causes.js';
