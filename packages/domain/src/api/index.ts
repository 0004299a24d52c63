export * from './contract.js';
export * from './shared.js';
