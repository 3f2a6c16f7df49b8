import type Anthropic from '@anthropic-ai/sdk';
import type { Message, ToolResultMessage } from '../messages.js';
import { argsForReplay } from '../base/tool-args.js';
import { ConversionCache } from './conversion-cache.js';
import type { ToolSpec } from './types.js';
import { resultImages, textWithImageLines } from './tool-result-images.js';

type Block = Anthropic.Messages.ContentBlockParam;
type MessageParam = Anthropic.Messages.MessageParam;
type ResultBlock = Anthropic.Messages.TextBlockParam | Anthropic.Messages.ImageBlockParam;
type ImageType = Anthropic.Messages.Base64ImageSource['media_type'];

export interface AnthropicMessageOptions {
  /** False for a model without vision: tool images become notes. Default true. */
  images?: boolean;
}

/**
 * Maps the internal conversation to Messages API turns. Tool results travel as `tool_result`
 * blocks in a user turn; consecutive same-role messages merge into one turn, so several
 * results (and a steering message after them) share one user message, results first.
 */
export function toAnthropicMessages(messages: readonly Message[], options: AnthropicMessageOptions = {}): MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: readonly Block[]) => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    // A turn's own array: a later merge must not grow a message's cached blocks.
    else out.push({ role, content: [...blocks] });
  };
  const images = options.images !== false;
  for (const m of messages) push(m.role === 'assistant' ? 'assistant' : 'user', blocksOf(m, images));
  return out;
}

/** A result with images is converted each time (its blocks depend on whether the model takes images). */
const converted = new ConversionCache<readonly Block[]>();

function blocksOf(m: Message, acceptsImages: boolean): readonly Block[] {
  if (m.role === 'tool' && m.images?.length) return convert(m, acceptsImages);
  return converted.get(m, (message) => convert(message, acceptsImages));
}

function convert(m: Message, acceptsImages: boolean): Block[] {
  if (m.role === 'user') return [{ type: 'text', text: m.text === '' ? '(empty message)' : m.text }];
  if (m.role === 'assistant') {
    const blocks: Block[] = m.text !== '' ? [{ type: 'text', text: m.text }] : [];
    for (const c of m.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: argsForReplay(c.args, c.rawArgs).object });
    return blocks;
  }
  return [{ type: 'tool_result', tool_use_id: m.callId, content: toolResultContent(m, acceptsImages), ...(m.isError ? { is_error: true } : {}) }];
}

/**
 * A tool result's content: its text alone, or (with images) a text block naming each image
 * followed by one `image` block per image (`source: { type: "base64", media_type, data }`).
 */
function toolResultContent(m: ToolResultMessage, acceptsImages: boolean): string | ResultBlock[] {
  const found = resultImages(m.images, acceptsImages);
  const text = textWithImageLines(m.output, found.lines);
  if (found.send.length === 0) return text === '' ? '(no output)' : text;
  const blocks: ResultBlock[] = [{ type: 'text', text }];
  for (const image of found.send) {
    blocks.push({ type: 'image', source: { type: 'base64', media_type: image.mimeType as ImageType, data: image.data } });
  }
  return blocks;
}

export function toAnthropicTools(tools: readonly ToolSpec[]): Anthropic.Messages.Tool[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters as Anthropic.Messages.Tool.InputSchema,
  }));
}
