import { describe, expect, it } from 'vitest';
import type { Message } from '../messages.js';
import { toAnthropicMessages } from './anthropic-request.js';

const call = (id: string) => ({ id, name: 'read_file', args: { path: `${id}.txt` }, rawArgs: `{"path":"${id}.txt"}` });
const result = (id: string, output: string): Message => ({ role: 'tool', callId: id, name: 'read_file', output, isError: false });

describe('toAnthropicMessages on a growing conversation', () => {
  it("reuses each message's blocks and each unchanged turn, while merged turns stay their own arrays", () => {
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
    // Unchanged turns are the same objects again (their bytes are reused); none is a message's own blocks.
    for (let i = 0; i < first.length; i++) expect(second[i]).toBe(first[i]);
    const results = toAnthropicMessages([conversation[2]!]);
    expect(results[0]!.content).not.toBe(first[2]!.content);
    expect((first[2]!.content as unknown[])[0]).toBe((results[0]!.content as unknown[])[0]);
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
  it('a turn that gains a message is a new turn; the one sent before is left as it was', () => {
    const conversation: Message[] = [{ role: 'user', text: 'go' }, { role: 'assistant', text: '', toolCalls: [call('a'), call('b')] }, result('a', 'one')];
    const first = toAnthropicMessages(conversation);
    const sent = JSON.stringify(first);
    conversation.push(result('b', 'two'));
    const second = toAnthropicMessages(conversation);
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    expect(second[2]).not.toBe(first[2]);
    expect(second[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'one' },
      { type: 'tool_result', tool_use_id: 'b', content: 'two' },
    ]);
    expect(JSON.stringify(first)).toBe(sent);
  });

  it('a conversation cut at the front (compaction) is converted afresh, turn by turn', () => {
    const conversation: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: 'done', toolCalls: [] },
      { role: 'user', text: 'more' },
    ];
    const first = toAnthropicMessages(conversation);
    conversation.splice(0, 2, { role: 'user', text: 'summary' });
    const second = toAnthropicMessages(conversation);
    expect(second).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'summary' },
          { type: 'text', text: 'more' },
        ],
      },
    ]);
    expect(second[0]).not.toBe(first[0]);
  });
});
