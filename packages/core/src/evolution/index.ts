export * from './signals.js';
export * from './agent-library.js';
export * from './reflect.js';
export * from './evolution-log.js';
export * from './apply-reflection.js';
