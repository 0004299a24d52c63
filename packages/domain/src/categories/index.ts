export * from './i18n.js';
export * from './schemas.js';
export * from './root-causes.js';
export * from './api.js';
