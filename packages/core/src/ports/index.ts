export * from './command-runner.js';
export * from './tool-gate.js';
export * from './job-manager.js';
export * from './path-resolver.js';
