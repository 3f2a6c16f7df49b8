import type Anthropic from '@anthropic-ai/sdk';
import type { Message } from '../messages.js';
import { argsForReplay } from '../base/tool-args.js';
import type { ToolSpec } from './types.js';

type Block = Anthropic.Messages.ContentBlockParam;
type MessageParam = Anthropic.Messages.MessageParam;

/**
 * Maps the internal conversation to Messages API turns. Tool results travel as `tool_result`
 * blocks in a user turn; consecutive same-role messages merge into one turn, so several
 * results (and a steering message after them) share one user message, results first.
 */
export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const out: { role: 'user' | 'assistant'; content: Block[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'user') {
      push('user', [{ type: 'text', text: m.text === '' ? '(empty message)' : m.text }]);
    } else if (m.role === 'assistant') {
      const blocks: Block[] = m.text !== '' ? [{ type: 'text', text: m.text }] : [];
      for (const c of m.toolCalls) blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: argsForReplay(c.args, c.rawArgs).object });
      push('assistant', blocks);
    } else {
      push('user', [
        { type: 'tool_result', tool_use_id: m.callId, content: m.output === '' ? '(no output)' : m.output, ...(m.isError ? { is_error: true } : {}) },
      ]);
    }
  }
  return out;
}

export function toAnthropicTools(tools: readonly ToolSpec[]): Anthropic.Messages.Tool[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters as Anthropic.Messages.Tool.InputSchema,
  }));
}
