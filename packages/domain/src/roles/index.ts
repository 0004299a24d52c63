export * from './i18n.js';
export * from './matrix.js';
export * from './schemas.js';
export * from './api.js';
