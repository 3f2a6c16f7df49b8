import type { McpScope } from './mcp-config.js';

export type McpStatusName = 'connected' | 'starting' | 'failed' | 'needs_approval' | 'disabled';

/** One server as `mcp:list`, `tandem mcp list` and the TUI show it. `tools`: the names the model sees. */
export interface McpServerStatus {
  name: string;
  scope: McpScope;
  status: McpStatusName;
  reason?: string;
  tools: string[];
}
