import { describe, expect, it } from 'vitest';
import type { Message } from '../messages.js';
import { toOpenAIMessages } from './openai-request.js';

const call = (id: string) => ({ id, name: 'read_file', args: { path: `${id}.txt` }, rawArgs: `{"path":"${id}.txt"}` });

describe('toOpenAIMessages on a growing conversation', () => {
  it('converts each message once and reuses it while it is unchanged', () => {
    const conversation: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: '', toolCalls: [call('a')] },
      { role: 'tool', callId: 'a', name: 'read_file', output: 'one', isError: false },
    ];
    const first = toOpenAIMessages('system', conversation);
    conversation.push({ role: 'assistant', text: '', toolCalls: [call('b')] }, { role: 'tool', callId: 'b', name: 'read_file', output: 'boom', isError: true });
    const second = toOpenAIMessages('system', conversation);
    expect(second[2]).toBe(first[2]);
    expect(second[3]).toBe(first[3]);
    expect(second.slice(4)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'b', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.txt"}' } }] },
      { role: 'tool', tool_call_id: 'b', content: 'Error: boom' },
    ]);
  });

  it('converts a message again when it changed in place since (a reply still being filled)', () => {
    const reply: Message = { role: 'assistant', text: '', toolCalls: [call('a')] };
    const tool: Message = { role: 'tool', callId: 'a', name: 'read_file', output: 'partial', isError: false };
    toOpenAIMessages('', [reply, tool]);
    reply.text = 'Reading both.';
    reply.toolCalls.push(call('b'));
    tool.output = 'whole output';
    const [assistant, result] = toOpenAIMessages('', [reply, tool]);
    expect(assistant).toEqual({
      role: 'assistant',
      content: 'Reading both.',
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
        { id: 'b', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.txt"}' } },
      ],
    });
    expect(result).toEqual({ role: 'tool', tool_call_id: 'a', content: 'whole output' });
  });
});
