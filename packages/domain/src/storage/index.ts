export * from './i18n.js';
export * from './rules.js';
export * from './names.js';
export * from './schemas.js';
export * from './api.js';
