import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { modelCopyOfOutput, type ToolOutcome } from '@tandem/core';

/**
 * An MCP tool result as the model's tool result: text as is, structured content as JSON when
 * there is no text, images/audio/resources described in one line each (the tool result is
 * text); `isError` becomes an error result; secret values are masked; long output is cut to
 * head + tail with the total size, as for built-in tools.
 */
export function mapToolResult(result: CallToolResult, secrets: readonly string[]): ToolOutcome {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text);
        break;
      case 'image':
      case 'audio':
        parts.push(`[${item.type} ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4)} bytes — not shown as text]`);
        break;
      case 'resource': {
        const res = item.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
        parts.push(
          res.text !== undefined ? `[resource ${res.uri}]\n${res.text}` : `[resource ${res.uri}${res.mimeType ? `, ${res.mimeType}` : ''} — binary, not shown]`,
        );
        break;
      }
      case 'resource_link':
        parts.push(`[link ${item.uri}${item.name ? ` (${item.name})` : ''}]`);
        break;
      default:
        parts.push(`[${(item as { type: string }).type} content]`);
    }
  }
  if (result.structuredContent && !parts.some((p) => p.trim() !== '')) parts.push(JSON.stringify(result.structuredContent, null, 2));
  let output = parts.join('\n');
  if (output === '') output = result.isError ? '(the tool reported an error without a message)' : '(no output)';
  output = maskSecrets(output, secrets);
  return { output: modelCopyOfOutput(output), isError: result.isError === true };
}

/** Replaces every secret value (4 characters or more) with `[secret]`. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[secret]');
  return out;
}
