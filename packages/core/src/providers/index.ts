export * from './types.js';
export * from './provider-error.js';
