/**
 * What a client on the server's machine needs of the server's files, without loading the server:
 * the tokens, `server.json`, the server's V8 flags (to start one in the background) and the
 * digest of the provider environment. `@tandem/server/local` loads none of the server's or the
 * engine's modules (socket.io, node-pty, the providers' SDKs): `tandem`, `tandem attach` and
 * `tandem run` import this, not `@tandem/server`, and start in a fraction of the time.
 */
export { loadTokens, TOKEN_FILE, VIEW_TOKEN_FILE } from './serve/tokens.js';
export { processAlive, readServerInfo, type ServerInfo } from './serve/server-info.js';
export { SERVER_NODE_FLAGS, serverNodeFlags } from './serve/node-flags.js';
export { providerEnvDigest, providersWithKey } from './serve/provider-env.js';
