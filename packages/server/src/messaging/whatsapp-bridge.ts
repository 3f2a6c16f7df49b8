import type { BridgeCall, MessagingBridge } from '@tandem/assistant-tools';
import type { McpHub } from '../mcp/mcp-hub.js';
import { mapToolResult } from '../mcp/mcp-result.js';

const CALL_TIMEOUT_MS = 60_000;

/**
 * The whatsapp_* tools' bridge: the MCP server named in config.json `whatsapp.mcpServer`, as
 * the workspace's MCP hub runs it (same approval, start, status and faults as any MCP server).
 * A failed bridge answers one sentence saying what to check. Without `whatsapp` in config.json
 * there is no bridge: the tools are not offered, and a call says how to set it up.
 */
export function whatsappBridge(mcp: McpHub, server: string, cwd: string): MessagingBridge {
  return {
    async call(call: BridgeCall, signal: AbortSignal) {
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
