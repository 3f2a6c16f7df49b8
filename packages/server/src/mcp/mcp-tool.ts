import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Danger } from '@tandem/shared';
import { defineTool, type AnyTool } from '@tandem/core';
import type { ToolImage } from '@tandem/ai';
import { mcpCallSubject } from './mcp-call-subject.js';
import type { McpEntry } from './mcp-config.js';
import type { McpConnection } from './mcp-connection.js';
import { mapToolResult, maskSecrets } from './mcp-result.js';
import { mcpToolName } from './tool-names.js';

/** The default per-call limit when the config names none (the loop's own limit still applies). */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 120_000;
const MAX_DESCRIPTION = 2_000;

/**
 * The danger of one MCP tool: the user's config (per tool, then per server), else `medium`.
 * The server's own annotations (readOnlyHint …) are never trusted to lower it.
 */
export function mcpToolDanger(entry: McpEntry, tool: string): Danger {
  return entry.tools?.[tool]?.danger ?? entry.danger ?? 'medium';
}

/** Keeps a result's images for the session (a stored copy per image, its `ref` set), or returns them as they are. */
export type KeepImages = (sessionId: string, images: ToolImage[]) => ToolImage[];

/** One MCP tool as an engine tool `mcp__SERVER__TOOL`: it goes through the same gate as every other tool. */
export function mcpTool(server: string, entry: McpEntry, tool: Tool, connection: McpConnection, secrets: readonly string[], keepImages?: KeepImages): AnyTool {
  const timeoutMs = entry.callTimeoutMs ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
  const description = `${maskSecrets(tool.description ?? tool.title ?? '(no description)', secrets)} [MCP server "${server}", tool "${tool.name}"]`;
  return defineTool({
    name: mcpToolName(server, tool.name),
    description: description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION)}…` : description,
    // The server validates the arguments against its own schema; here only "a JSON object".
    schema: z.record(z.string(), z.unknown()),
    parameters: jsonSchemaOf(tool),
    danger: mcpToolDanger(entry, tool.name),
    readOnly: false,
    kind: 'other',
    subject: mcpCallSubject,
    // A person approves what will be sent: every argument.
    preview: (args) => JSON.stringify(args, null, 2),
    // What the server's tool changes is unknown: a checkpoint keeps the workspace around it.
    unknownWrites: true,
    timeoutMs: () => timeoutMs,
    async execute(args, ctx) {
      const result = await connection.callTool(tool.name, args, ctx.signal, timeoutMs);
      const outcome = mapToolResult(result, secrets);
      if (outcome.images && keepImages) outcome.images = keepImages(ctx.sessionId, outcome.images);
      return outcome;
    },
  });
}

function jsonSchemaOf(tool: Tool): Record<string, unknown> {
  const schema: Record<string, unknown> = { ...(tool.inputSchema as Record<string, unknown>) };
  delete schema.$schema;
  schema.type = 'object';
  if (!schema.properties) schema.properties = {};
  return schema;
}
