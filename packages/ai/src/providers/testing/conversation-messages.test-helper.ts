import type { Message, ToolCall } from '../../messages.js';

// Conversations written briefly in tests: a tool call with the raw arguments the model sent
// (their JSON), and the assistant message that makes calls.

/** A tool call as read from a model reply: `args` and their JSON text. */
export function toolCallOf(id: string, name: string, args: Record<string, unknown>): ToolCall {
  return { id, name, args, rawArgs: JSON.stringify(args) };
}

/** An assistant message with `text` and these tool calls. */
export function assistantCalling(text: string, ...toolCalls: ToolCall[]): Message {
  return { role: 'assistant', text, toolCalls };
}
