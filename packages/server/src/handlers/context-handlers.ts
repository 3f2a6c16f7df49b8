import type { SessionContexts } from '../context/session-contexts.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/**
 * `session:compact` (requirements C1 on demand): folds the older part of the conversation into a summary
 * with the cheap model, whatever the usage. Refused with `conflict` while a turn runs. The
 * `compaction` event goes into the log, so the conversation every later turn sees follows it.
 */
export function contextHandlers(sessions: SessionManager, contexts: SessionContexts): HandlerMap {
  return {
    'session:compact': async ({ sessionId }) => {
      const session = sessions.require(sessionId);
      return session.turns.exclusive('compact the conversation', async (signal) => {
        const context = await contexts.for(session);
        const result = await context.compactNow({ conversation: session.conversationSnapshot(), signal });
        for (const event of result.events) session.emit(event);
        return result.reason === undefined ? { compacted: result.compacted } : { compacted: result.compacted, reason: result.reason };
      });
    },
  };
}
