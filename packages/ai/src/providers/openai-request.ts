import type OpenAI from 'openai';
import type { Message } from '../messages.js';
import { argsForReplay } from '../base/tool-args.js';
import { ConversionCache } from './conversion-cache.js';
import type { ToolSpec } from './types.js';
import { resultImages, textWithImageLines } from './tool-result-images.js';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
type UserPart = OpenAI.Chat.Completions.ChatCompletionContentPart;

export interface OpenAIMessageOptions {
  /** False for a model without vision: tool images become notes. Default true. */
  images?: boolean;
}

/**
 * Maps the internal conversation to Chat Completions messages (system first, tool results by
 * call id). A `tool` message holds text only, so a tool's images follow the run of tool
 * messages they belong to as one `user` message of `image_url` parts (base64 data URLs),
 * each introduced by the call it came from; the tool text names each image.
 */
export function toOpenAIMessages(system: string, messages: readonly Message[], options: OpenAIMessageOptions = {}): ChatMessage[] {
  // One slot per message (and the system prompt): the array is made at its size once, not grown
  // by pushes, and the cached messages are taken without a closure each. A long conversation is
  // walked on every request, so this walk allocates nothing per message it has seen before.
  const out: ChatMessage[] = new Array(messages.length + (system.trim() !== '' ? 1 : 0));
  let k = 0;
  let images: UserPart[] = [];
  const flushImages = () => {
    if (images.length > 0) out[k++] = { role: 'user', content: images };
    images = [];
  };
  if (system.trim() !== '') out[k++] = systemMessage(system);
  for (const m of messages) {
    if (m.role !== 'tool') flushImages();
    if (m.role === 'user') {
      out[k++] = converted.get(m, userMessage);
    } else if (m.role === 'assistant') {
      out[k++] = converted.get(m, assistantMessage);
    } else if (!m.images?.length) {
      out[k++] = converted.get(m, toolMessage);
    } else {
      const found = resultImages(m.images, options.images !== false);
      const text = textWithImageLines(m.output, found.lines);
      out[k++] = { role: 'tool', tool_call_id: m.callId, content: m.isError ? markError(text) : text };
      if (found.send.length > 0) {
        images.push({ type: 'text', text: `Images returned by ${m.name} (call ${m.callId}):` });
        for (const image of found.send) images.push({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } });
      }
    }
  }
  flushImages();
  return out;
}

const converted = new ConversionCache<ChatMessage>();
/** System messages by prompt (a few: one per workspace and agent kind), so the same prompt is the same object each request. */
const systemMessages = new Map<string, ChatMessage>();
const SYSTEM_MESSAGES_KEPT = 16;

function systemMessage(system: string): ChatMessage {
  let message = systemMessages.get(system);
  if (!message) {
    message = { role: 'system', content: system };
    if (systemMessages.size >= SYSTEM_MESSAGES_KEPT) systemMessages.delete(systemMessages.keys().next().value as string);
    systemMessages.set(system, message);
  }
  return message;
}

function userMessage(m: Extract<Message, { role: 'user' }>): ChatMessage {
  return { role: 'user', content: m.text };
}

function assistantMessage(m: Extract<Message, { role: 'assistant' }>): ChatMessage {
  const toolCalls = m.toolCalls.map((c) => ({
    id: c.id,
    type: 'function' as const,
    function: { name: c.name, arguments: argsForReplay(c.args, c.rawArgs).text },
  }));
  return {
    role: 'assistant',
    content: m.text === '' && toolCalls.length > 0 ? null : m.text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function toolMessage(m: Extract<Message, { role: 'tool' }>): ChatMessage {
  return { role: 'tool', tool_call_id: m.callId, content: m.isError ? markError(m.output) : m.output };
}

/** Chat Completions has no error flag on tool results, so an error says so in its text. */
function markError(output: string): string {
  return /^error\b/i.test(output) ? output : `Error: ${output}`;
}

export function toOpenAITools(tools: readonly ToolSpec[]): ChatTool[] {
  return tools.map(toOpenAITool);
}

const toolForms = new WeakMap<ToolSpec, ChatTool>();

/** One tool's request form, made once per spec (a spec does not change; a changed tool is a new spec). */
function toOpenAITool(t: ToolSpec): ChatTool {
  let tool = toolForms.get(t);
  if (!tool) {
    tool = { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } };
    toolForms.set(t, tool);
  }
  return tool;
}
