// What the model contract and the wire formats share with the engine above: tool-call argument
// text, the default temperature, a tool result's images, a lazily loaded module.
export * from './tool-args.js';
export * from './temperature.js';
export * from './tool-image.js';
export * from './load-once.js';
