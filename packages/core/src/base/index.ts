// The bottom layer: what every part of the engine shares. Imports nothing above it.
export * from './tool-error.js';
export * from './engine-event.js';
export * from './stable-json.js';
export * from './atomic-write.js';
export * from './atomic-write-sync.js';
export * from './sandbox-error.js';
