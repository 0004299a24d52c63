export * from './i18n.js';
export * from './schemas.js';
export * from './time-zones.js';
export * from './api.js';
