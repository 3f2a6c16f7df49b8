import type { McpHub } from '../mcp/mcp-hub.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/** `mcp:list`: the live status of the MCP servers of a session's workspace (or the default workspace). */
export function mcpHandlers(hub: McpHub, sessions: SessionManager, defaultCwd: string): HandlerMap {
  return {
    'mcp:list': async ({ sessionId }) => {
      const cwd = sessionId ? sessions.require(sessionId).meta.cwd : defaultCwd;
      return { servers: await hub.status(cwd, sessionId) };
    },
  };
}
