import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/** session:send, session:cancel, command:input: what an attached driver does to a turn (through its one owner, `SessionTurns`). */
export function turnHandlers(sessions: SessionManager): HandlerMap {
  return {
    'session:send': ({ sessionId, text, maxIterations }, { client }) => {
      const { turns } = sessions.require(sessionId);
      const mode = turns.send(text, client.name, maxIterations !== undefined ? { maxIterations } : {});
      const turnId = turns.current?.turnId;
      return { mode, ...(turnId ? { turnId } : {}) };
    },

    'session:cancel': ({ sessionId }) => {
      sessions.require(sessionId).turns.cancel();
      return {};
    },

    'command:input': async ({ sessionId, callId, data }, { client }) => {
      await sessions.require(sessionId).input(callId, data, client.name);
      return {};
    },
  };
}
