export * from './command-runner.js';
export * from './tool-gate.js';
export * from './job-manager.js';
export * from './path-resolver.js';
export * from './command-check.js';
export * from './noninteractive-env.js';
