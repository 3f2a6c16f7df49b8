import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { imageNote, type ToolImage } from '@tandem/ai';
import type { ToolOutcome } from '@tandem/core';
import { modelCopyOfOutput } from '@tandem/coding-tools';

/** The largest image passed on to the model (Anthropic refuses images over 5 MB). */
export const MAX_TOOL_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPE = /^image\/[a-z0-9.+-]+$/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * An MCP tool result as the model's tool result: text as is, structured content as JSON when
 * there is no text, images (image content, or an image resource's blob) kept as images beside
 * the text, audio and other binaries described in one line each; `isError` becomes an error
 * result; secret values are masked; long text is cut to head + tail with the total size, as for
 * built-in tools. An image that is not valid base64 or is over 5 MB becomes a line saying so.
 */
export function mapToolResult(result: CallToolResult, secrets: readonly string[]): ToolOutcome {
  const parts: string[] = [];
  const images: ToolImage[] = [];
  const image = (mimeType: string, data: string) => {
    const kept = toolImage(mimeType, data);
    if (typeof kept === 'string') parts.push(kept);
    else images.push(kept);
  };
  for (const item of result.content ?? []) {
    switch (item.type) {
      case 'text':
        parts.push(item.text);
        break;
      case 'image':
        image(item.mimeType, item.data);
        break;
      case 'audio':
        parts.push(`[audio ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4)} bytes — not shown as text]`);
        break;
      case 'resource': {
        const res = item.resource as { uri: string; mimeType?: string; text?: string; blob?: string };
        if (res.text !== undefined) parts.push(`[resource ${res.uri}]\n${res.text}`);
        else if (res.blob !== undefined && res.mimeType && IMAGE_TYPE.test(res.mimeType)) image(res.mimeType, res.blob);
        else parts.push(`[resource ${res.uri}${res.mimeType ? `, ${res.mimeType}` : ''} — binary, not shown]`);
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
  // An image alone is an answer: the provider names it in the text it sends.
  if (output === '' && images.length === 0) output = result.isError ? '(the tool reported an error without a message)' : '(no output)';
  output = maskSecrets(output, secrets);
  return { output: modelCopyOfOutput(output), isError: result.isError === true, ...(images.length > 0 ? { images } : {}) };
}

/** One image as the engine carries it, or the line that replaces an image it cannot carry. */
function toolImage(mimeType: string, data: string): ToolImage | string {
  const type = mimeType.toLowerCase();
  const clean = data.replace(/\s+/g, '');
  const bytes = Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0);
  if (!IMAGE_TYPE.test(type) || clean.length % 4 !== 0 || !BASE64.test(clean)) {
    return `[image ${mimeType.slice(0, 60)} — the server sent data that is not a base64 image; not shown]`;
  }
  if (bytes > MAX_TOOL_IMAGE_BYTES) return imageNote({ mimeType: type, bytes }, 'over the 5 MB limit for images');
  return { mimeType: type, bytes, data: clean };
}

/** Replaces every secret value (4 characters or more) with `[secret]`. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[secret]');
  return out;
}
