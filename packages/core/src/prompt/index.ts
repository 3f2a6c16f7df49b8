export * from './system-prompt.js';
export * from './agents-md.js';
