export * from './types.js';
export * from './provider-error.js';
export * from './classify-error.js';
