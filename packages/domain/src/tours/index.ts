export * from './schemas.js';
export * from './api.js';
