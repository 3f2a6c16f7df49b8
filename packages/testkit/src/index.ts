export * from './fake-reply.js';
export * from './fake-model-server.js';
export * from './temp-dir.js';
export * from './fake-clock.js';
export * from './settle.js';
export * from './seeded-random.js';
export * from './session-log-lines.js';
export * from './self-signed-cert.js';
