import type { ToolOutcome, ToolServices } from '@tandem/core';
import { ToolError } from '@tandem/core';

/**
 * The surface of the common WhatsApp MCP bridges: the host maps these calls onto the MCP
 * server named in config.json `whatsapp.mcpServer`, through the same client as every MCP tool.
 */
export type BridgeCall =
  | { tool: 'send_message'; args: { recipient: string; message: string } }
  | { tool: 'search_contacts'; args: { query: string } }
  | { tool: 'list_messages'; args: { query?: string; chat_jid?: string; limit: number } }
  | { tool: 'list_chats'; args: { limit: number; sort_by: 'last_active' } };

export interface MessagingBridge {
  /** Calls the bridge; throws an Error with one sentence saying how to configure it when it is missing or down. */
  call(call: BridgeCall, signal: AbortSignal): Promise<ToolOutcome>;
}

/** The messaging tools' host service. */
export interface MessagingServices {
  messaging?: MessagingBridge;
}

declare module '@tandem/core' {
  interface ToolServices extends MessagingServices {}
}

/** How to set the messaging tools up (config.json and the bridge), when the host has no bridge. */
export const MESSAGING_SETUP = 'add "whatsapp": { "mcpServer": "whatsapp" } to config.json and the bridge itself with `tandem mcp add whatsapp -- COMMAND ...`';

/** The whatsapp_* tools' `setup`: offered only when the host has a bridge. */
export function messagingSetup(services: ToolServices): string | undefined {
  return services.messaging ? undefined : MESSAGING_SETUP;
}

export function bridgeOf(services: ToolServices): MessagingBridge {
  const bridge = services.messaging;
  if (!bridge) {
    throw new ToolError(`messaging is not configured: ${MESSAGING_SETUP}`);
  }
  return bridge;
}

export async function callBridge(services: ToolServices, call: BridgeCall, signal: AbortSignal): Promise<ToolOutcome> {
  try {
    return await bridgeOf(services).call(call, signal);
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(err instanceof Error ? err.message : String(err));
  }
}
