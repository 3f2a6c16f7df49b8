import type OpenAI from 'openai';
import type { Message } from '../messages.js';
import { argsForReplay } from '../base/tool-args.js';
import type { ToolSpec } from './types.js';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type ChatTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;

/** Maps the internal conversation to Chat Completions messages (system first, tool results by call id). */
export function toOpenAIMessages(system: string, messages: readonly Message[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system.trim() !== '') out.push({ role: 'system', content: system });
  for (const m of messages) {
    if (m.role === 'user') {
      out.push({ role: 'user', content: m.text });
    } else if (m.role === 'assistant') {
      const toolCalls = m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: argsForReplay(c.args, c.rawArgs).text },
      }));
      out.push({
        role: 'assistant',
        content: m.text === '' && toolCalls.length > 0 ? null : m.text,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      });
    } else {
      out.push({ role: 'tool', tool_call_id: m.callId, content: m.isError ? markError(m.output) : m.output });
    }
  }
  return out;
}

/** Chat Completions has no error flag on tool results, so an error says so in its text. */
function markError(output: string): string {
  return /^error\b/i.test(output) ? output : `Error: ${output}`;
}

export function toOpenAITools(tools: readonly ToolSpec[]): ChatTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}
