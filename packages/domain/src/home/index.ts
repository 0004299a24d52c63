export * from './schemas.js';
export * from './api.js';
export * from './rules.js';
export { homeMessages } from './i18n.js';
