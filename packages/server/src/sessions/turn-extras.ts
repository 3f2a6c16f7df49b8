import type { Logger } from 'pino';
import { turnMemory, type TurnOptions } from '@tandem/core';
import type { SessionContexts } from '../context/session-contexts.js';
import type { WorkspaceMemories } from '../memory/workspace-memories.js';
import type { Session } from './session.js';

export interface TurnExtrasDeps {
  contexts: SessionContexts;
  memories: WorkspaceMemories;
  logger: Logger;
}

/**
 * The `extendTurn` step that puts context accounting and memory into every turn: the session's
 * `SessionContext` (TurnOptions.context), the workspace's memory frozen into the system prompt
 * (TurnOptions.memory) and reachable by the memory tools (services.memory). Either part that
 * cannot be opened is left out with a warning in the server log; the turn still runs.
 */
export function turnExtras(deps: TurnExtrasDeps): (session: Session, options: TurnOptions) => Promise<TurnOptions> {
  return async (session, options) => {
    const [context, memory] = await Promise.allSettled([deps.contexts.for(session), deps.memories.for(session.meta.cwd)]);
    const out: TurnOptions = { ...options };
    if (context.status === 'fulfilled') out.context = context.value;
    else deps.logger.warn({ err: context.reason, sessionId: session.id }, 'context accounting is off for this turn');
    if (memory.status === 'fulfilled') {
      out.memory = turnMemory(memory.value);
      out.services = { ...options.services, memory: memory.value };
    } else deps.logger.warn({ err: memory.reason, sessionId: session.id }, 'memory is off for this turn');
    return out;
  };
}
