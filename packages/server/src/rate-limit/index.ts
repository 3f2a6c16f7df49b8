export * from './call-rate-limit.js';
export * from './connection-limiter.js';
export * from './stable-json.js';
