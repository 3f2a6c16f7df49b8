import { commandRoots, discoverCustomCommands } from '@tandem/core';
import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/** `commands:list`: the custom slash commands of a session's workspace and of the user, read now. */
export function commandsHandlers(sessions: SessionManager, dirs: { dataDir: string; home: string }): HandlerMap {
  return {
    'commands:list': ({ sessionId }) => {
      const workspace = sessions.require(sessionId).meta.cwd;
      return { commands: discoverCustomCommands(commandRoots({ workspace, ...dirs })) };
    },
  };
}
