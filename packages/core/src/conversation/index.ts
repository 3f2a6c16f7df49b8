export * from './tool-args.js';
export * from './conversation-builder.js';
