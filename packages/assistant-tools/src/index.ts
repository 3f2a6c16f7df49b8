// The assistant's tools: what a personal assistant does beyond code (web, calendar, WhatsApp,
// routines, provider set-up, self-clone). Each folder describes its tools through the engine's
// tool contract (`defineTool` in @tandem/core); `assistantTools()` lists them.
export { assistantTools } from './assistant-tools.js';
export { selfCloneTool, CLONE_SKIPPED_DIRECTORIES } from './self-clone.js';
export * from './web/index.js';
export * from './calendar/index.js';
export * from './routines/index.js';
export * from './messaging/index.js';
export * from './provider-setup/index.js';
export * from './routines/routine-host.js';
export * from './provider-setup/provider-configurator.js';
