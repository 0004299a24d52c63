/**
 * drizzle-orm is a dependency of the server workspace and is not hoisted to the root, so the bench
 * reaches it through the server's own copy: the very files the server's `Db` type comes from, so a
 * drizzle made here is the server's `Db` to the compiler and at run time.
 */
export { drizzle } from '../../packages/server/node_modules/drizzle-orm/node-postgres/index.js';
export type { Logger } from '../../packages/server/node_modules/drizzle-orm/logger.js';
