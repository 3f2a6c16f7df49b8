import type { ContentBlock } from '@agentclientprotocol/sdk';

/**
 * The text of a `session/prompt` as one Tandem message: text blocks as they are, a linked
 * resource as its URI (the agent reads it with its own tools), an embedded text resource as a
 * fenced block under its URI. Images, audio and binary resources are not offered (the
 * prompt capabilities say so); one that comes anyway is named, not dropped silently.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`@${fileOrUri(block.uri)}`);
        break;
      case 'resource': {
        const { resource } = block;
        if ('text' in resource && typeof resource.text === 'string') parts.push(`${fileOrUri(resource.uri)}:\n\`\`\`\n${resource.text}\n\`\`\``);
        else parts.push(`@${fileOrUri(resource.uri)} (binary content not included)`);
        break;
      }
      default:
        parts.push(`(a ${block.type} block was left out: Tandem takes text)`);
    }
  }
  return parts.join('\n\n').trim();
}

function fileOrUri(uri: string): string {
  return uri.startsWith('file://') ? decodeURIComponent(uri.slice('file://'.length)) : uri;
}
