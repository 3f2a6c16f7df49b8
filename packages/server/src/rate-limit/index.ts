export * from './call-rate-limit.js';
export * from './connection-limiter.js';
