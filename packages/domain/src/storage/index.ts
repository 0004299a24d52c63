export * from './i18n.js';
export * from './rules.js';
export * from './api.js';
