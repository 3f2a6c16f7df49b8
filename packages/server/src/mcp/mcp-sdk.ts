import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadOnce } from '@tandem/ai';

/** The parts of the MCP SDK the client side uses. */
export interface McpSdk {
  Client: typeof Client;
  ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
  StdioClientTransport: typeof StdioClientTransport;
  getDefaultEnvironment: typeof getDefaultEnvironment;
  SSEClientTransport: typeof SSEClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
}

/**
 * The MCP SDK, loaded when the first MCP server starts: ~17 MB of resident memory (its client,
 * schemas and validator) that a server without MCP servers should not carry.
 */
export const mcpSdk = loadOnce(load);

async function load(): Promise<McpSdk> {
  const [client, types, stdio, sse, http] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
  ]);
  return {
    Client: client.Client,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    StdioClientTransport: stdio.StdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    SSEClientTransport: sse.SSEClientTransport,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
  };
}
