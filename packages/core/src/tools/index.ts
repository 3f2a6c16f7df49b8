export * from './define.js';
export { isOffered, notSetUp } from './tool-setup.js';
export { commandEnvOf, commandCheckOf, type CommandServices } from './command-services.js';
