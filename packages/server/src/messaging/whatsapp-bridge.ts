import type { BridgeCall, MessagingBridge } from '@tandem/core';
import type { McpHub } from '../mcp/mcp-hub.js';
import { mapToolResult } from '../mcp/mcp-result.js';

const CALL_TIMEOUT_MS = 60_000;

/**
 * The whatsapp_* tools' bridge: the MCP server named in config.json `whatsapp.mcpServer`, as
 * the workspace's MCP hub runs it (same approval, start, status and faults as any MCP server).
 * A missing or failed bridge answers one sentence saying how to set it up.
 */
export function whatsappBridge(mcp: McpHub, server: string | undefined, cwd: string): MessagingBridge {
  return {
    async call(call: BridgeCall, signal: AbortSignal) {
      if (!server) {
        throw new Error(
          'messaging is not configured: add "whatsapp": { "mcpServer": "whatsapp" } to config.json and the bridge itself with `tandem mcp add whatsapp -- COMMAND …`',
        );
      }
      const connection = await mcp.connection(cwd, server);
      if (!connection) {
        const status = (await mcp.status(cwd)).find((s) => s.name === server);
        const why = !status ? `no MCP server named "${server}" is configured` : `its status is ${status.status}${status.reason ? `: ${status.reason}` : ''}`;
        throw new Error(`the WhatsApp bridge (MCP server "${server}") is not available — ${why}; see \`tandem mcp list\``);
      }
      const tools = await connection.connectedClient()?.listTools();
      if (tools && !tools.tools.some((t) => t.name === call.tool)) {
        throw new Error(
          `the MCP server "${server}" has no ${call.tool} tool, so it is not a WhatsApp bridge Tandem can use (it needs send_message, list_messages, list_chats)`,
        );
      }
      const result = await connection.callTool(call.tool, call.args, signal, CALL_TIMEOUT_MS);
      return mapToolResult(result, []);
    },
  };
}
