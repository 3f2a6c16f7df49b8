export * from './version.js';
export * from './errors.js';
export * from './common.js';
export * from './events.js';
export * from './commands.js';
export * from './shares.js';
export * from './tool-calls.js';
