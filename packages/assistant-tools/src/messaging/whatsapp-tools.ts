import { z } from 'zod';
import { defineTool } from '@tandem/core';
import { callBridge, messagingSetup } from './messaging-bridge.js';
import { capSummary, oneLine } from '@tandem/shared';

const limit = z.number().int().min(1).max(200).optional();

export const whatsappSendTool = defineTool({
  name: 'whatsapp_send',
  description:
    'Sends a WhatsApp message through the configured bridge. The user sees the recipient and the full text and must approve each message. Use it only when the user asked to send something; prefer whatsapp_search first when you are unsure who the recipient is.',
  schema: z.object({
    to: z.string().min(1).max(200).describe('Phone number with country code (digits only) or a chat id (NUMBER@s.whatsapp.net, ID@g.us)'),
    text: z
      .string()
      .min(1)
      .max(3_800)
      .describe('The whole message, exactly as it will be sent (at most 3800 characters, so the approval dialog shows all of it)'),
  }),
  danger: 'medium',
  readOnly: false,
  kind: 'message',
  summary: (args) => capSummary(oneLine(`${args.to}: ${args.text}`)),
  // The recipient and the whole text, as it will go out.
  preview: (args) => `To: ${args.to}\n\n${args.text}`,
  setup: messagingSetup,
  execute: (args, ctx) => callBridge(ctx.services, { tool: 'send_message', args: { recipient: args.to, message: args.text } }, ctx.signal),
});

export const whatsappSearchTool = defineTool({
  name: 'whatsapp_search',
  description:
    "Searches the user's WhatsApp message history for text and returns the matching messages with chat, sender and time. Use it to find what someone said; prefer whatsapp_messages to read one known chat.",
  schema: z.object({ query: z.string().min(1).max(500).describe('Text to look for'), limit }),
  danger: 'safe',
  readOnly: true,
  kind: 'search',
  summary: (args) => capSummary(oneLine(args.query)),
  setup: messagingSetup,
  execute: (args, ctx) => callBridge(ctx.services, { tool: 'list_messages', args: { query: args.query, limit: args.limit ?? 20 } }, ctx.signal),
});

export const whatsappLatestTool = defineTool({
  name: 'whatsapp_latest',
  description:
    'Lists the user\'s most recently active WhatsApp chats with their last message. Use it for "any new messages?"; prefer whatsapp_messages to read one chat in full.',
  schema: z.object({ limit }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  summary: () => '',
  setup: messagingSetup,
  execute: (args, ctx) => callBridge(ctx.services, { tool: 'list_chats', args: { limit: args.limit ?? 10, sort_by: 'last_active' } }, ctx.signal),
});

export const whatsappMessagesTool = defineTool({
  name: 'whatsapp_messages',
  description:
    'Reads the latest messages of one WhatsApp chat (by chat id, as whatsapp_latest or whatsapp_search show it). Use it to catch up on a conversation; prefer whatsapp_search to find a message across chats.',
  schema: z.object({ chat: z.string().min(1).max(200).describe('The chat id'), limit }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  summary: (args) => args.chat,
  setup: messagingSetup,
  execute: (args, ctx) => callBridge(ctx.services, { tool: 'list_messages', args: { chat_jid: args.chat, limit: args.limit ?? 20 } }, ctx.signal),
});
