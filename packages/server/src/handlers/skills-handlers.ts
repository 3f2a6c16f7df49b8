import type { WorkspaceSkills } from '../skills/workspace-skills.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/** `skills:list`: every skill folder of a session's workspace (or of `cwd`, else the default workspace) with its root and status. */
export function skillsHandlers(skills: WorkspaceSkills, sessions: SessionManager, defaultCwd: string): HandlerMap {
  return {
    'skills:list': ({ sessionId, cwd }) => {
      const workspace = sessionId ? sessions.require(sessionId).meta.cwd : (cwd ?? defaultCwd);
      return { skills: skills.list(workspace) };
    },
  };
}
