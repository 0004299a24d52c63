export * from './schemas.js';
export * from './api.js';
export * from './i18n.js';
