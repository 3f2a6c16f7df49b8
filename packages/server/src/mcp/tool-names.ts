import { createHash } from 'node:crypto';

/** Every MCP tool name starts with this, so none can shadow a built-in tool. */
export const MCP_TOOL_PREFIX = 'mcp__';
/** Providers refuse longer tool names (OpenAI: ^[a-zA-Z0-9_-]{1,64}$). */
export const MAX_TOOL_NAME = 64;

/**
 * `mcp__SERVER__TOOL`, with characters providers refuse replaced by `_`. Over 64 characters,
 * the name is cut and ends with `_` and 8 hex digits of a hash of the full name, so it stays
 * stable across restarts and distinct from its neighbours.
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `${MCP_TOOL_PREFIX}${clean(server)}__${clean(tool)}`;
  if (full.length <= MAX_TOOL_NAME && full === `${MCP_TOOL_PREFIX}${server}__${tool}`) return full;
  const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
  if (full.length <= MAX_TOOL_NAME) return full.length + 9 <= MAX_TOOL_NAME ? `${full}_${hash}` : `${full.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
  return `${full.slice(0, MAX_TOOL_NAME - 9)}_${hash}`;
}

function clean(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}
