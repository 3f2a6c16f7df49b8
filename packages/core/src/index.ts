// The engine's public entry point. Each area keeps its own index; add exports there.
export * from './base/index.js';
export * from './ports/index.js';
export * from './loop/index.js';
export * from './tools/index.js';
export * from './context/index.js';
export * from './memory/index.js';
export * from './prompt/index.js';
export * from './conversation/index.js';
export * from './secrets/index.js';
export * from './skills/index.js';
export * from './agents/index.js';
export * from './slash-commands/index.js';
export * from './evolution/index.js';
