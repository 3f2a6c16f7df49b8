import { describe, expect, it } from 'vitest';
import type { Message } from '../messages.js';
import { toAnthropicMessages } from './anthropic-request.js';

const call = (id: string) => ({ id, name: 'read_file', args: { path: `${id}.txt` }, rawArgs: `{"path":"${id}.txt"}` });
const result = (id: string, output: string): Message => ({ role: 'tool', callId: id, name: 'read_file', output, isError: false });

describe('toAnthropicMessages on a growing conversation', () => {
  it("reuses each message's blocks while merged turns stay their own arrays", () => {
    const conversation: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: '', toolCalls: [call('a'), call('b')] },
      result('a', 'one'),
      result('b', 'two'),
      { role: 'user', text: 'also c' },
    ];
    const first = toAnthropicMessages(conversation);
    conversation.push({ role: 'assistant', text: 'ok', toolCalls: [call('c')] }, result('c', 'three'));
    const second = toAnthropicMessages(conversation);
    // The results and the steering message merge into one user turn, in both requests alike.
    const merged = [
      { type: 'tool_result', tool_use_id: 'a', content: 'one' },
      { type: 'tool_result', tool_use_id: 'b', content: 'two' },
      { type: 'text', text: 'also c' },
    ];
    expect(first[2]?.content).toEqual(merged);
    expect(second[2]?.content).toEqual(merged);
    expect(second[2]?.content).not.toBe(first[2]?.content);
    const [firstTurn, secondTurn] = [first[2]!.content as unknown[], second[2]!.content as unknown[]];
    expect(secondTurn[0]).toBe(firstTurn[0]);
    expect(second.slice(3)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'ok' },
          { type: 'tool_use', id: 'c', name: 'read_file', input: { path: 'c.txt' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c', content: 'three' }] },
    ]);
  });

  it('converts a message again when it changed in place since', () => {
    const reply: Message = { role: 'assistant', text: '', toolCalls: [call('a')] };
    toAnthropicMessages([{ role: 'user', text: 'go' }, reply]);
    reply.text = 'Reading it.';
    expect(toAnthropicMessages([{ role: 'user', text: 'go' }, reply])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'a.txt' } },
      ],
    });
  });
});
