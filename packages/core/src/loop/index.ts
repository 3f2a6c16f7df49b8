export * from './types.js';
export * from './run-turn.js';
export * from './turn-end.js';
export * from './async-queue.js';
export * from './loop-detector.js';
export * from './parallel-batches.js';
export * from './execute-call.js';
export * from './host-call.js';
