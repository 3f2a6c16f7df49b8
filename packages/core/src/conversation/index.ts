export * from './conversation-builder.js';
