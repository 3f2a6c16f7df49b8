export * from './command-runner.js';
export * from './tool-gate.js';
export * from './job-manager.js';
export * from './path-resolver.js';
export * from './routine-host.js';
export * from './provider-configurator.js';
