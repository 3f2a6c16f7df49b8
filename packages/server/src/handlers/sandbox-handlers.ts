import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/**
 * sandbox:grant: a driver widens the session's path sandbox to one more directory (requirements P4),
 * or with `write: true` lets the agent change a protected location for the session.
 */
export function sandboxHandlers(sessions: SessionManager): HandlerMap {
  return {
    'sandbox:grant': async ({ sessionId, path, write }, { client }) => ({
      path: await sessions.require(sessionId).grant(path, client.name, write ? { write: true } : {}),
    }),
  };
}
