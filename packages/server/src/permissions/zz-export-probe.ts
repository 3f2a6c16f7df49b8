export * from '../index.js';
export * from './index.js';
export * from '../audit/index.js';
export * from '../rate-limit/index.js';
