// `@tandem/server/local`: what a client on this machine needs to find and reach the local
// server (server.json, the token files, the flags a background server runs with), without
// loading the server itself: `tandem run` starts in a fraction of the time `@tandem/server` takes.
export { readServerInfo, type ServerInfo } from './serve/server-info.js';
export { loadTokens, TOKEN_FILE, VIEW_TOKEN_FILE } from './serve/tokens.js';
export { SERVER_NODE_FLAGS, serverNodeFlags } from './serve/node-flags.js';
