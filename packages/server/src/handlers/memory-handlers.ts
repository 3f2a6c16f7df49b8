import { consolidateSession, readMemory } from '@tandem/core';
import { resolveMemoryChain, type Clock, type ResolveOptions } from '@tandem/ai';
import type { WorkspaceMemories } from '../memory/workspace-memories.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

export interface MemoryHandlersDeps {
  sessions: SessionManager;
  memories: WorkspaceMemories;
  dataDir: string;
  /** env, config, clock, governor, estimateTokens: how the memory chain is resolved (requirements H2). */
  resolve: Omit<ResolveOptions, 'onEvent' | 'chain' | 'clock'> & { clock: Clock };
}

/**
 * `session:new` (requirements H1–H4): consolidates the conversation into the workspace's MEMORY.md and
 * HISTORY.md with the memory chain (TANDEM_MEMORY_MODELS, else config.json `memoryModels`, else
 * the catalog's hidden cheap models), then clears it; if every model fails the conversation is
 * kept and the log says "memory archival failed, session not cleared". `memory:show` returns
 * MEMORY.md, HISTORY.md and the recall items of the session's workspace.
 */
export function memoryHandlers(deps: MemoryHandlersDeps): HandlerMap {
  const { sessions, memories } = deps;
  return {
    'session:new': async ({ sessionId }, { client }) => {
      const session = sessions.require(sessionId);
      return session.turns.exclusive('start a new conversation', async (signal) => {
        const workspaceMemory = await memories.for(session.meta.cwd);
        const { chain } = resolveMemoryChain({ ...deps.resolve, onEvent: (event) => void session.emit(event) });
        const out = await consolidateSession({
          conversation: session.conversationSnapshot(),
          workspaceMemory,
          chain,
          clock: deps.resolve.clock,
          by: client.name,
          signal,
          env: deps.resolve.env,
        });
        for (const event of out.events) session.emit(event);
        return out.ack;
      });
    },
    'memory:show': async ({ sessionId }) => {
      const session = sessions.require(sessionId);
      const snapshot = await readMemory(deps.dataDir, session.meta.cwd);
      const items = snapshot.items.map(({ id, kind, text, createdAt }) => ({ id, kind, text, createdAt }));
      return { memory: snapshot.memory, history: snapshot.history, items };
    },
  };
}
