import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeClock, startFakeModelServer, type FakeModelServer } from '@tandem/testkit';
import { estimateTextTokens } from '../context/estimate-tokens.js';
import { SessionContext } from '../context/session-context.js';
import type { Message } from '../messages.js';
import { createOpenAIChatClient } from '../providers/openai-chat.js';
import { defineTool, type AnyTool } from '../tools/define.js';
import { runTurn } from '../loop/run-turn.js';
import type { EngineEvent, TurnOptions } from '../loop/types.js';
import { ConversationBuilder, conversationFromEvents, type ConversationEvent } from './conversation-builder.js';

let server: FakeModelServer;
beforeEach(async () => {
  server = await startFakeModelServer();
});
afterEach(async () => {
  await server.close();
});

/** About 1,000 estimated tokens of plain English. */
const PAGE = 'The quick brown fox jumps over the lazy dog near the river bank. '.repeat(77);

const page = defineTool({
  name: 'read_page',
  description: 'Reads one page of the manual.',
  schema: z.object({ n: z.number() }),
  danger: 'safe',
  readOnly: true,
  execute: async ({ n }) => `page ${n}: ${PAGE}`,
});
const hang = defineTool({
  name: 'hang',
  description: 'Waits until aborted.',
  schema: z.object({}),
  danger: 'safe',
  readOnly: false,
  execute: (_a, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))),
});

/** A session as the server runs it: the live conversation the loop works on, and the persisted log. */
function session(context: SessionContext | undefined) {
  const conversation: Message[] = [];
  const log: ConversationEvent[] = [];
  let turn = 0;
  const model = createOpenAIChatClient({ id: 'openai/main', model: 'main', baseURL: server.openaiBaseURL, apiKey: 'k' });
  async function play(text: string, opts: { cancelOn?: (e: EngineEvent) => boolean; context?: SessionContext | undefined } = {}): Promise<EngineEvent[]> {
    const turnId = `t${++turn}`;
    const ac = new AbortController();
    log.push({ type: 'user_message', text, by: 'ana', mode: 'turn' });
    const options: TurnOptions = {
      sessionId: 's',
      turnId,
      conversation,
      userText: text,
      userName: 'ana',
      system: 'sys',
      model,
      tools: [page, hang] as AnyTool[],
      cwd: '/w',
      runner: { run: async () => ({ exitCode: 0, output: '', timedOut: false }) },
      paths: { resolve: async (p) => p },
      baselines: { recordRead() {}, assertFresh: async () => {}, recordWrite() {} },
      signal: ac.signal,
      ...('context' in opts ? (opts.context ? { context: opts.context } : {}) : context ? { context } : {}),
    };
    const events: EngineEvent[] = [];
    for await (const e of runTurn(options)) {
      events.push(e);
      if (e.type !== 'text_delta') log.push(JSON.parse(JSON.stringify(e)) as EngineEvent);
      if (opts.cancelOn?.(e)) setTimeout(() => ac.abort(), 10);
    }
    return events;
  }
  return { conversation, log, play };
}

function contextFor(window: number, keepRecentMessages: number): SessionContext {
  return new SessionContext({
    model: { id: 'openai/main', contextWindow: window, maxOutput: 4096 },
    compactionClient: createOpenAIChatClient({ id: 'openai/summary', model: 'summary', baseURL: server.openaiBaseURL, apiKey: 'k' }),
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
    server.script('main', { text: 'Hello.' });
    await s.play('hi');

    // Pages pile up until a request crosses 80 %; the fold takes everything before the last call,
    // including this turn's own user message. Then the model starts a call that never ends.
    server.script(
      'main',
      { toolCalls: [{ id: 'p1', name: 'read_page', args: { n: 1 } }] },
      { toolCalls: [{ id: 'p2', name: 'read_page', args: { n: 2 } }] },
      { toolCalls: [{ id: 'p3', name: 'read_page', args: { n: 3 } }] },
      { text: 'Now waiting.', toolCalls: [{ id: 'h', name: 'hang', args: {} }] },
    );
    server.script('summary', { text: 'The user said hi; pages 1 and 2 of the manual were read.' });
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
    server.script('main', { text: 'Where were we?' });
    await s.play('continue');
    expect(s.conversation).toHaveLength(3);
    expect(s.conversation).toEqual(conversationFromEvents(s.log));
  });

  it('keeps what came before the turn when the fold ends before the turn started', async () => {
    const s = session(contextFor(3500, 2));
    // The first turn brings a long message in, without context management.
    server.script('main', { text: 'Noted.' });
    await s.play(`Keep this manual in mind: ${PAGE.repeat(3)}`, { context: undefined });

    server.script('main', { hang: true });
    server.script('summary', { text: 'The user shared a manual about a fox.' });
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
