import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeClock } from '@tandem/testkit';
import { estimateTextTokens } from '../context/estimate-tokens.js';
import { SessionContext } from '../context/session-context.js';
import { defineTool, type AnyTool } from '../tools/define.js';
import { fakeModelServerPerTest, openaiClient } from '@tandem/ai/testing/fake-server';
import { hangTool } from '../loop/turn-harness.test-helper.js';
import type { EngineEvent } from '../loop/types.js';
import { ConversationBuilder, conversationFromEvents } from './conversation-builder.js';
import { recordedSession } from './recorded-session.test-helper.js';

const fake = fakeModelServerPerTest();

/** About 1,000 estimated tokens of plain English. */
const PAGE = 'The quick brown fox jumps over the lazy dog near the river bank. '.repeat(77);

const page = defineTool({
  name: 'read_page',
  description: 'Reads one page of the manual.',
  schema: z.object({ n: z.number() }),
  danger: 'safe',
  readOnly: true,
  kind: 'other',
  execute: async ({ n }) => `page ${n}: ${PAGE}`,
});

/** The session these tests replay: pages and a hanging tool on model `main`; `cancelOn` aborts the turn soon after a matching event. */
function session(context: SessionContext | undefined) {
  const s = recordedSession({ model: openaiClient(fake.server, 'main'), tools: [page, hangTool] as AnyTool[] });
  function play(text: string, opts: { cancelOn?: (e: EngineEvent) => boolean; context?: SessionContext | undefined } = {}): Promise<EngineEvent[]> {
    const ac = new AbortController();
    const turnContext = 'context' in opts ? opts.context : context;
    return s.play(text, { signal: ac.signal, ...(turnContext ? { context: turnContext } : {}) }, (e) => {
      if (opts.cancelOn?.(e)) setTimeout(() => ac.abort(), 10);
    });
  }
  return { conversation: s.conversation, log: s.log, play };
}

function contextFor(window: number, keepRecentMessages: number): SessionContext {
  return new SessionContext({
    model: { id: 'openai/main', contextWindow: window, maxOutput: 4096 },
    compactionClient: openaiClient(fake.server, 'summary'),
    outputReserve: 200,
    keepRecentMessages,
    clock: new FakeClock(),
  });
}

describe('a compaction in the middle of a turn, then a cancel', () => {
  it('rolls the live conversation back to what the event log rebuilds (turn start folded into the summary)', async () => {
    expect(estimateTextTokens(PAGE)).toBeGreaterThan(850);
    expect(estimateTextTokens(PAGE)).toBeLessThan(1150);
    const s = session(contextFor(3500, 1));
    fake.server.script('main', { text: 'Hello.' });
    await s.play('hi');

    // Pages pile up until a request crosses 80 %; the fold takes everything before the last call,
    // including this turn's own user message. Then the model starts a call that never ends.
    fake.server.script(
      'main',
      { toolCalls: [{ id: 'p1', name: 'read_page', args: { n: 1 } }] },
      { toolCalls: [{ id: 'p2', name: 'read_page', args: { n: 2 } }] },
      { toolCalls: [{ id: 'p3', name: 'read_page', args: { n: 3 } }] },
      { text: 'Now waiting.', toolCalls: [{ id: 'h', name: 'hang', args: {} }] },
    );
    fake.server.script('summary', { text: 'The user said hi; pages 1 and 2 of the manual were read.' });
    const events = await s.play('read the manual', { cancelOn: (e) => e.type === 'tool_call' && e.tool === 'hang' });

    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ foldedMessages: expect.any(Number) });
    expect((compactions[0] as { foldedMessages: number }).foldedMessages).toBeGreaterThan(2); // the turn started at index 2
    expect(events.at(-1)!.type).toBe('turn_cancelled');
    expect(s.conversation).toHaveLength(1);
    expect(s.conversation[0]).toMatchObject({ role: 'user', text: expect.stringContaining('pages 1 and 2 of the manual were read') });
    expect(s.conversation).toEqual(conversationFromEvents(s.log));

    // The session goes on from there, and both views still agree.
    fake.server.script('main', { text: 'Where were we?' });
    await s.play('continue');
    expect(s.conversation).toHaveLength(3);
    expect(s.conversation).toEqual(conversationFromEvents(s.log));
  });

  it('keeps what came before the turn when the fold ends before the turn started', async () => {
    const s = session(contextFor(3500, 2));
    // The first turn brings a long message in, without context management.
    fake.server.script('main', { text: 'Noted.' });
    await s.play(`Keep this manual in mind: ${PAGE.repeat(3)}`, { context: undefined });

    fake.server.script('main', { hang: true });
    fake.server.script('summary', { text: 'The user shared a manual about a fox.' });
    const builder = new ConversationBuilder();
    const events = await s.play('what does it say?', { cancelOn: (e) => e.type === 'context_usage' });

    expect(events.find((e) => e.type === 'compaction')).toMatchObject({ foldedMessages: 1 });
    expect(events.at(-1)!.type).toBe('turn_cancelled');
    // The summary and the answer to the first turn stay; this turn's message is rolled back.
    expect(s.conversation).toHaveLength(2);
    expect(s.conversation[1]).toEqual({ role: 'assistant', text: 'Noted.', toolCalls: [] });
    for (const e of s.log) builder.apply(e);
    expect(builder.messages).toEqual(s.conversation);
  });
});
