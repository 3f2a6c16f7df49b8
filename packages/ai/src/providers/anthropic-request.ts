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
 *
 * A turn whose messages converted to the same blocks as in the last request for this
 * conversation is that request's turn object again, so the request body can reuse its bytes
 * (request-bytes.ts); a turn is never changed once made: one that gains a message is a new one.
 */
export function toAnthropicMessages(messages: readonly Message[], options: AnthropicMessageOptions = {}): MessageParam[] {
  const images = options.images !== false;
  const before = lastTurns.get(messages) ?? [];
  const turns: Turn[] = [];
  const out: MessageParam[] = [];
  // The turn being read: its role, how many of its parts are known, and either the turn of the
  // last request it still matches part for part (`same`) or the parts gathered so far.
  let role: Role | undefined;
  let count = 0;
  let same: Turn | undefined;
  let parts: (readonly Block[])[] | undefined;
  const close = () => {
    if (role === undefined) return;
    const turn = same && count === same.parts.length ? same : made(role, parts ?? same!.parts.slice(0, count));
    turns.push(turn);
    out.push(turn.param);
  };
  for (const m of messages) {
    const blocks = blocksOf(m, images);
    if (blocks.length === 0) continue;
    const r: Role = m.role === 'assistant' ? 'assistant' : 'user';
    if (r !== role) {
      close();
      role = r;
      count = 0;
      const earlier = before[turns.length];
      same = earlier?.param.role === r ? earlier : undefined;
      parts = undefined;
    }
    if (same && same.parts[count] === blocks) {
      count++;
      continue;
    }
    if (same) {
      parts = same.parts.slice(0, count);
      same = undefined;
    }
    (parts ??= []).push(blocks);
    count++;
  }
  close();
  lastTurns.set(messages, turns);
  return out;
}

type Role = 'user' | 'assistant';

/** One turn as sent: the blocks of each of its messages, and the turn (its own content array). */
interface Turn {
  parts: readonly (readonly Block[])[];
  param: MessageParam;
}

/** The turns of the last request per conversation (the conversation's array), for the next one. */
const lastTurns = new WeakMap<readonly Message[], Turn[]>();

function made(role: Role, parts: readonly (readonly Block[])[]): Turn {
  // A turn's own array: the messages' cached blocks are never part of a request's turn.
  return { parts, param: { role, content: parts.flat() } };
}

/** A result with images is converted each time (its blocks depend on whether the model takes images). */
const converted = new ConversionCache<readonly Block[]>();

function blocksOf(m: Message, acceptsImages: boolean): readonly Block[] {
  if (m.role === 'tool' && m.images?.length) return convert(m, acceptsImages);
  return converted.get(m, convertPlain);
}

/** A message without tool images: its blocks are the same whether the model takes images or not. */
function convertPlain(m: Message): Block[] {
  return convert(m, true);
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
  return tools.map(toAnthropicTool);
}

const toolForms = new WeakMap<ToolSpec, Anthropic.Messages.Tool>();

/** One tool's request form, made once per spec (a spec does not change; a changed tool is a new spec). */
function toAnthropicTool(t: ToolSpec): Anthropic.Messages.Tool {
  let tool = toolForms.get(t);
  if (!tool) {
    tool = { name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Messages.Tool.InputSchema };
    toolForms.set(t, tool);
  }
  return tool;
}
