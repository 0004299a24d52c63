export * from './i18n.js';
export * from './local-time.js';
export * from './schemas.js';
export * from './status.js';
export * from './api.js';
