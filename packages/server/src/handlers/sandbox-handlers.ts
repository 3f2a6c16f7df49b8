import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/** sandbox:grant: a driver widens the session's path sandbox to one more directory (requirements P4). */
export function sandboxHandlers(sessions: SessionManager): HandlerMap {
  return {
    'sandbox:grant': async ({ sessionId, path }, { client }) => ({ path: await sessions.require(sessionId).grant(path, client.name) }),
  };
}
