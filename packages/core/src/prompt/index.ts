export * from './system-prompt.js';
export * from './agents-md.js';
export * from './instruction-files.js';
export * from './nested-instructions.js';
export * from './load-instructions.js';
