export * from './i18n.js';
export * from './catalogue.js';
export * from './template.js';
export * from './schemas.js';
export * from './api.js';
