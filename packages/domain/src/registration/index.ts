export * from './i18n.js';
export * from './schemas.js';
export * from './guests.js';
export * from './api.js';
export * from './guests-api.js';
