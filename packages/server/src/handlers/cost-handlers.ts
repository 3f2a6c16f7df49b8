import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/**
 * `session:usage`: what a session's turns used and cost, per model that answered and in total
 * (the TUI's `/cost`). `session:reload`: the next turn builds the system prompt anew instead of
 * the one frozen for the session (see `FrozenPrompts`), knowingly writing the prompt cache again.
 */
export function costHandlers(sessions: SessionManager): HandlerMap {
  return {
    'session:usage': async ({ sessionId }) => sessions.usage(sessionId),
    'session:reload': async ({ sessionId }) => {
      sessions.require(sessionId).reloadPrompt();
      return {};
    },
  };
}
