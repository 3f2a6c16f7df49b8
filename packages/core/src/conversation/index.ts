export * from './tool-args.js';
