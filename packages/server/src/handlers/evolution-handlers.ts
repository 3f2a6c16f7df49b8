import type { AgentEvolution } from '../evolution/agent-evolution.js';
import { InvalidInputError } from '../errors/domain-errors.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/** `agents:evolution`: list an agent's reflections, run one now, or revert one. */
export function evolutionHandlers(evolution: AgentEvolution, sessions: SessionManager, defaultCwd: string): HandlerMap {
  return {
    'agents:evolution': async ({ name, cwd, sessionId, runNow, revert }, { client }) => {
      if (runNow && revert) throw new InvalidInputError('ask for --run-now or --revert ID, not both');
      const workspace = sessionId ? sessions.require(sessionId).meta.cwd : (cwd ?? defaultCwd);
      const ran = runNow ? await evolution.reflect(name, { trigger: 'run_now', workspace, sessionId }) : undefined;
      const reverted = revert ? evolution.revert(name, revert, client.name, sessionId) : undefined;
      return { records: evolution.list(name), ...(ran ? { ran } : {}), ...(reverted ? { reverted } : {}) };
    },
  };
}
