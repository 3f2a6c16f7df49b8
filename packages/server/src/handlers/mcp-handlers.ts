import type { McpHub } from '../mcp/mcp-hub.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

/** `mcp:list`: the live status of the MCP servers of a session's workspace (or of `cwd`, else the default workspace). */
export function mcpHandlers(hub: McpHub, sessions: SessionManager, defaultCwd: string): HandlerMap {
  return {
    'mcp:list': async ({ sessionId, cwd }) => {
      const workspace = sessionId ? sessions.require(sessionId).meta.cwd : (cwd ?? defaultCwd);
      return { servers: await hub.status(workspace, sessionId) };
    },
  };
}
