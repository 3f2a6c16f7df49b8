import { describe, expect, it } from 'vitest';
import type { AnyTool } from '../tools/define.js';
import { fakeModelServerPerTest, openaiClient } from '@tandem/ai/testing/fake-server';
import { echoTool, hangTool } from '../loop/turn-harness.test-helper.js';
import { INTERRUPTED_OUTPUT } from '../loop/turn-end.js';
import type { SteeringMessage } from '../loop/types.js';
import { summaryMessage } from '../context/run-compaction.js';
import { ConversationBuilder, conversationFromEvents, type ConversationEvent } from './conversation-builder.js';
import { recordedSession } from './recorded-session.test-helper.js';
import { assistantCalling, toolCallOf } from '@tandem/ai/testing/conversation-messages';

const fake = fakeModelServerPerTest();

describe('conversationFromEvents', () => {
  it('rebuilds exactly the live conversation after text, tool, error, cancel, steering, limit and loop turns', async () => {
    const { conversation, log, play } = recordedSession({ model: openaiClient(fake.server, 'fake'), tools: [echoTool, hangTool] as AnyTool[] });

    fake.server.enqueue({ text: 'Hello.' });
    await play('hi');

    fake.server.enqueue(
      {
        text: 'Looking.',
        toolCalls: [
          { id: 'a', name: 'echo', args: { text: 'x', n: [1, { b: 2 }] } },
          { id: 'b', name: 'echo', args: '{"text": oops' },
          { id: 'c', name: 'missing', args: '' },
        ],
      },
      { text: 'Done looking.' },
    );
    await play('look');

    fake.server.enqueue({ status: 401 });
    await play('fails');

    fake.server.enqueue({ chunks: ['partial ', 'text', ' lost'], cutAfterChunks: 3 });
    await play('cut');

    const ac = new AbortController();
    fake.server.enqueue({ text: 'Waiting.', toolCalls: [{ id: 'h', name: 'hang', args: {} }] });
    await play('cancel me', { signal: ac.signal }, (e) => {
      if (e.type === 'tool_call') setTimeout(() => ac.abort(), 10);
    });

    const pending: SteeringMessage[] = [];
    fake.server.enqueue({ toolCalls: [{ id: 's1', name: 'echo', args: { text: 's' } }] }, { text: 'first' }, { text: 'second' });
    await play('steer', { takeSteering: () => pending.splice(0) }, (e) => {
      if (e.type === 'tool_call') pending.push({ text: 'and also', by: 'bo' });
      if (e.type === 'assistant_text' && e.text === 'first') pending.push({ text: 'one more', by: 'ana' });
    });

    let n = 0;
    fake.server.setHandler(() => ({ toolCalls: [{ name: 'echo', args: { text: `r${++n}` } }] }));
    await play('limit', { limits: { maxIterations: 3 } });

    let m = 0;
    fake.server.setHandler(() =>
      ++m < 3
        ? { toolCalls: [{ name: 'echo', args: { text: 'same' } }] }
        : {
            toolCalls: [
              { name: 'echo', args: { text: 'same' } },
              { name: 'echo', args: { text: 'same' } },
              { name: 'echo', args: { text: 'same' } },
              { name: 'echo', args: { text: 'never run' } },
            ],
          },
    );
    await play('loop');

    expect(log.filter((e) => e.type === 'turn_cancelled')).toHaveLength(1);
    expect(log.filter((e) => e.type === 'agent_error').map((e) => (e as { code: string }).code)).toEqual([
      'auth',
      'stream_cut',
      'max_iterations',
      'loop_stopped',
    ]);
    expect(conversation.length).toBeGreaterThan(20);
    expect(conversationFromEvents(log)).toEqual(conversation);
  });

  it('gives unfinished calls of an interrupted turn an error result', () => {
    const events: ConversationEvent[] = [
      { type: 'user_message', text: 'go', by: 'ana', mode: 'turn' },
      { type: 'turn_started', turnId: 't1', model: 'm' },
      { type: 'tool_call', turnId: 't1', iteration: 1, callId: 'a', tool: 'echo', args: { text: 'x' }, danger: 'safe' },
      { type: 'tool_call', turnId: 't1', iteration: 1, callId: 'b', tool: 'run_command', args: { command: 'make' }, danger: 'medium' },
      { type: 'tool_result', turnId: 't1', callId: 'a', tool: 'echo', isError: false, output: 'echo: x', durationMs: 1 },
      { type: 'turn_interrupted', turnId: 't1', reason: 'server restarted' },
    ];
    expect(conversationFromEvents(events)).toEqual([
      { role: 'user', text: 'go' },
      assistantCalling('', toolCallOf('a', 'echo', { text: 'x' }), toolCallOf('b', 'run_command', { command: 'make' })),
      { role: 'tool', callId: 'a', name: 'echo', output: 'echo: x', isError: false },
      { role: 'tool', callId: 'b', name: 'run_command', output: INTERRUPTED_OUTPUT, isError: true },
    ]);
  });

  it('empties on conversation_cleared, folds on compaction, ignores unrelated events', () => {
    const builder = new ConversationBuilder();
    builder.apply({ type: 'user_message', text: 'old', by: 'ana', mode: 'turn' });
    builder.apply({ type: 'conversation_cleared', by: 'ana' });
    expect(builder.messages).toEqual([]);
    builder.apply({ type: 'user_message', text: 'new', by: 'ana', mode: 'turn' });
    builder.apply({ type: 'presence', clients: [] });
    builder.apply({ type: 'user_message', text: 'newer', by: 'ana', mode: 'turn' });
    builder.apply({ type: 'compaction', foldedMessages: 1, tokensBefore: 10, tokensAfter: 8, summary: 'asked for new' });
    builder.apply({ type: 'thinking', turnId: 't' });
    expect(builder.messages).toEqual([summaryMessage('asked for new', 1), { role: 'user', text: 'newer' }]);
    const copy = builder.messages;
    copy.push({ role: 'user', text: 'mutated' });
    expect(builder.messages).toHaveLength(2);
    // A fold count past the end (a corrupt log) folds what there is instead of crashing.
    builder.apply({ type: 'compaction', foldedMessages: 99, tokensBefore: 8, tokensAfter: 4, summary: 'all' });
    expect(builder.messages).toEqual([summaryMessage('all', 2)]);
  });
});
