export { McpHub, type McpHubOptions } from './mcp-hub.js';
export { WorkspaceMcp } from './workspace-mcp.js';
export { McpConnection } from './mcp-connection.js';
export type { McpServerStatus, McpStatusName } from './mcp-status.js';
export { loadMcpConfig, PROJECT_MCP_FILE, USER_MCP_FILE, type McpServerConfig, type McpEntry } from './mcp-config.js';
export { mcpToolName, MCP_TOOL_PREFIX } from './tool-names.js';
export { addUserServer, addUserServerJson, removeUserServer, type AddServerInput } from './user-mcp-file.js';
