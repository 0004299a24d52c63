export * from './i18n.js';
export * from './schemas.js';
