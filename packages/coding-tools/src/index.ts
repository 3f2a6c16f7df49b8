// The coding tools' public entry point: the tools, the command blacklist, the path sandbox and the
// permission policy. Each area keeps its own index; add exports there.
export * from './sandbox/index.js';
export * from './shell/index.js';
export * from './permission/index.js';
export * from './tools/index.js';
