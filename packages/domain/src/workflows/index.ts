export * from './i18n.js';
export * from './schemas.js';
export * from './api.js';
export * from './review.js';
export * from './review-i18n.js';
