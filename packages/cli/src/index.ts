export { buildProgram, type Outcome, type ProgramHooks } from './program.js';
export { ensureLocalServer, findRunningServer, startBackgroundServer, SERVER_OUT_FILE, type LocalServerOptions } from './local-server.js';
export { resolveConnection, type ConnectionArgs } from './connection-args.js';
export { formatSessionTable } from './session-table.js';
export { defaultClientName } from './client-name.js';
export { serverAnswers } from './server-probe.js';
