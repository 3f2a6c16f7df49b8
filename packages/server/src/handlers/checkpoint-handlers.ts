import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/** session:undo, session:diff, session:checkpoints: taking turns back, files and conversation. */
export function checkpointHandlers(sessions: SessionManager): HandlerMap {
  return {
    'session:undo': async ({ sessionId, turns }, { client }) => {
      const { files, conflicts } = await sessions.require(sessionId).undo(turns ?? 1, client.name);
      return { files, conflicts };
    },
    'session:diff': async ({ sessionId, turnId }) => {
      const session = sessions.require(sessionId);
      if (!session.checkpoints) return { files: [], diff: '' };
      return session.checkpoints.diff(turnId);
    },
    'session:checkpoints': async ({ sessionId }) => {
      const session = sessions.require(sessionId);
      const checkpoints = session.checkpoints;
      if (!checkpoints) return { turns: [], off: session.checkpointsOff ?? 'checkpoints are off' };
      return { turns: await checkpoints.list() };
    },
  };
}
