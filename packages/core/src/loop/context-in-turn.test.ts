import { describe, expect, it } from 'vitest';
import { SessionEventSchema } from '@tandem/shared';
import { FakeClock } from '@tandem/testkit';
import { ContextAccountant } from '../context/context-accountant.js';
import { SUMMARY_PREFIX } from '../context/run-compaction.js';
import { SessionContext, type SessionContextOptions } from '../context/session-context.js';
import type { Message } from '@tandem/ai';
import { modelInfo } from '@tandem/ai';
import { toToolSpec, type AnyTool } from '../tools/define.js';
import { runTurn } from './run-turn.js';
import { fakeModelServerPerTest, openaiClient } from '@tandem/ai/testing/fake-server';
import { collect, echoTool, ofType, turnOptions, type TurnSetup } from './turn-harness.test-helper.js';
import type { EngineEvent, TurnOptions } from './types.js';

const fake = fakeModelServerPerTest();

const SYSTEM = 'You are a test agent.';
const RESERVE = 200;
const tools = [echoTool] as AnyTool[];

const client = (model: string) => openaiClient(fake.server, model);
const requestsTo = (model: string) => fake.server.requests.filter((r) => r.model === model);

/** Three earlier exchanges of a few hundred tokens each. */
function earlier(): Message[] {
  const out: Message[] = [];
  for (let i = 1; i <= 3; i++) {
    out.push({ role: 'user', text: `Question ${i}: explain module ${i}. ${'The parser reads tokens one by one. '.repeat(20)}` });
    out.push({ role: 'assistant', text: `Answer ${i}: ${'It builds the syntax tree in a single pass. '.repeat(20)}`, toolCalls: [] });
  }
  return out;
}

/** Estimated size of the first request of a turn starting with `userText` on `conversation`. */
function firstRequestTokens(conversation: Message[], userText: string): number {
  const probe = new ContextAccountant({ windowTokens: 1_000_000, outputReserve: RESERVE });
  probe.setSystem(SYSTEM);
  probe.setTools(tools.map(toToolSpec));
  probe.sync([...conversation, { role: 'user', text: userText }]);
  return probe.usage().usedTokens;
}

function sessionContext(over: Partial<SessionContextOptions> & { contextWindow: number }): SessionContext {
  const { contextWindow, ...rest } = over;
  return new SessionContext({
    model: { id: 'openai/fake-gpt', contextWindow, maxOutput: 4096 },
    compactionClient: client('summary-mini'),
    outputReserve: RESERVE,
    keepRecentMessages: 2,
    clock: new FakeClock(),
    ...rest,
  });
}

const options = (over: Partial<TurnSetup>): TurnOptions =>
  turnOptions({ userText: 'and module 4?', system: SYSTEM, model: client('fake-gpt'), tools, ...over });
const stamp = (e: EngineEvent, seq: number) => SessionEventSchema.parse({ sessionId: 's1', seq, ts: new Date(0).toISOString(), ...e });

describe('context accounting and compaction inside a real turn', () => {
  it('compacts before the request that reaches 80 % of the window; the request carries the summary and the tail', async () => {
    const conversation = earlier();
    const used = firstRequestTokens(conversation, 'and module 4?');
    // A model the catalog does not ship, with a custom window from config.json, sized so the
    // first request lands exactly on the threshold.
    const window = Math.floor(used / 0.8);
    const info = modelInfo('openai/fake-gpt', {
      models: [
        {
          id: 'openai/fake-gpt',
          label: 'Fake',
          provider: 'openai',
          protocol: 'openai-chat',
          contextWindow: window,
          maxOutput: 4096,
          tools: true,
          tier: 'test',
          description: '',
        },
      ],
    });
    expect(info.contextWindow).toBe(window);
    const context = new SessionContext({
      model: info,
      compactionClient: client('summary-mini'),
      outputReserve: RESERVE,
      keepRecentMessages: 2,
      clock: new FakeClock(),
    });
    fake.server.script('summary-mini', { text: 'Modules 1-3 explained: single-pass parser building the syntax tree.' });
    fake.server.script('fake-gpt', { text: 'Module 4 is the code generator.' });

    const events = await collect(runTurn(options({ conversation, context })));

    expect(events.map((e) => e.type)).toEqual([
      'turn_started',
      'thinking',
      'compaction',
      'context_usage',
      'text_delta',
      'assistant_text',
      'usage',
      'turn_done',
    ]);
    events.forEach((e, i) => stamp(e, i + 1)); // every event is valid on the wire
    const compaction = ofType(events, 'compaction')[0]!;
    expect(compaction).toMatchObject({ foldedMessages: 5, summary: 'Modules 1-3 explained: single-pass parser building the syntax tree.' });
    expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
    expect(ofType(events, 'context_usage')[0]!.percent).toBeLessThan(80);
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'answered' });

    expect(requestsTo('summary-mini')).toHaveLength(1);
    const sent = requestsTo('fake-gpt')[0]!.body.messages as Array<{ role: string; content: string }>;
    expect(sent[0]).toMatchObject({ role: 'system' });
    expect(sent[1]!.role).toBe('user');
    expect(sent[1]!.content).toContain(SUMMARY_PREFIX);
    expect(sent[1]!.content).toContain('Modules 1-3 explained');
    expect(sent[2]!.content).toContain('Answer 3:'); // the kept tail, verbatim
    expect(sent[3]).toMatchObject({ role: 'user', content: 'and module 4?' });
    expect(sent).toHaveLength(4);
    // The host's array itself was compacted, then the answer appended.
    expect(conversation).toHaveLength(4);
    expect(conversation[0]).toMatchObject({ role: 'user', text: expect.stringContaining(SUMMARY_PREFIX) });
  });

  it('does not compact at 79 %', async () => {
    const conversation = earlier();
    const used = firstRequestTokens(conversation, 'and module 4?');
    const context = sessionContext({ contextWindow: Math.ceil(used / 0.79) });
    fake.server.script('fake-gpt', { text: 'Module 4 is the code generator.' });

    const events = await collect(runTurn(options({ conversation, context })));

    expect(ofType(events, 'compaction')).toHaveLength(0);
    expect(ofType(events, 'compaction_skipped')).toHaveLength(0);
    const usage = ofType(events, 'context_usage');
    expect(usage).toHaveLength(1);
    expect(usage[0]!.usedTokens).toBe(used);
    expect(usage[0]!.percent).toBeGreaterThanOrEqual(78.5);
    expect(usage[0]!.percent).toBeLessThan(80);
    expect(requestsTo('summary-mini')).toHaveLength(0);
    expect(conversation).toHaveLength(8);
  });

  it('skips compaction with a warning and makes no summary call when the retained tail alone fills the window', async () => {
    const conversation: Message[] = [
      { role: 'user', text: 'hi' },
      { role: 'assistant', text: 'hello', toolCalls: [] },
    ];
    const huge = `Please review this log: ${'error at line 12 of parser.ts; '.repeat(300)}`;
    const context = sessionContext({ contextWindow: Math.floor(firstRequestTokens([], huge) * 0.9) });
    fake.server.script('fake-gpt', { text: 'That log is long.' });

    const events = await collect(runTurn(options({ conversation, context, userText: huge })));

    const skipped = ofType(events, 'compaction_skipped');
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.reason).toMatch(/most recent exchange alone .* already reaches 80% of the \d+-token window/);
    expect(requestsTo('summary-mini')).toHaveLength(0);
    expect(fake.server.requests).toHaveLength(1);
    expect(ofType(events, 'context_usage')[0]!.percent).toBeGreaterThan(100);
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'answered' });
  });

  it('emits context_usage before every model request of the turn', async () => {
    const context = sessionContext({ contextWindow: 100_000 });
    fake.server.script(
      'fake-gpt',
      { toolCalls: [{ name: 'echo', args: { text: 'one' } }], usage: { input: 50, output: 5 } },
      { toolCalls: [{ name: 'echo', args: { text: 'two' } }], usage: { input: 60, output: 5 } },
      { text: 'done', usage: { input: 70, output: 1 } },
    );
    const events = await collect(runTurn(options({ context })));
    const usage = ofType(events, 'context_usage');
    expect(requestsTo('fake-gpt')).toHaveLength(3);
    expect(usage).toHaveLength(3);
    expect(usage.map((u) => u.windowTokens)).toEqual([100_000, 100_000, 100_000]);
    // Each usage event comes right after its request's `thinking` and grows as results are appended.
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'thinking' || t === 'context_usage')).toEqual([
      'thinking',
      'context_usage',
      'thinking',
      'context_usage',
      'thinking',
      'context_usage',
    ]);
    expect(usage[1]!.usedTokens).toBeGreaterThan(usage[0]!.usedTokens);
  });

  it('learns the token ratio from the reported input tokens (calibration)', async () => {
    const conversation = earlier();
    const context = sessionContext({ contextWindow: 100_000 });
    const raw = (() => {
      const probe = new ContextAccountant({ windowTokens: 1_000_000, outputReserve: RESERVE });
      probe.setSystem(SYSTEM);
      probe.setTools(tools.map(toToolSpec));
      probe.sync([...conversation, { role: 'user', text: 'and module 4?' }]);
      return probe.rawInputEstimate();
    })();
    fake.server.script('fake-gpt', { text: 'ok', usage: { input: Math.round(raw * 1.5), output: 1 } });
    await collect(runTurn(options({ conversation, context })));
    expect(context.calibration.ratio('openai/fake-gpt')).toBeCloseTo(1.5, 2);
  });
});

describe('a context overflow reported by the provider', () => {
  const overflowReplies = [
    [
      '400 context_length_exceeded',
      { status: 400, errorBody: { error: { message: "This model's maximum context length is 4096 tokens.", code: 'context_length_exceeded' } } },
    ],
    ['413', { status: 413 }],
  ] as const;

  for (const [name, overflow] of overflowReplies) {
    it(`compacts once and retries the request once (${name})`, async () => {
      const conversation = earlier();
      const context = sessionContext({ contextWindow: 100_000 });
      fake.server.script('fake-gpt', overflow, { text: 'Module 4 is the code generator.' });
      fake.server.script('summary-mini', { text: 'Modules 1-3: a single-pass parser.' });

      const events = await collect(runTurn(options({ conversation, context })));

      expect(fake.server.requests.map((r) => r.model)).toEqual(['fake-gpt', 'summary-mini', 'fake-gpt']);
      expect(ofType(events, 'agent_error')).toHaveLength(0);
      expect(ofType(events, 'compaction')).toHaveLength(1);
      expect(ofType(events, 'assistant_text')[0]).toMatchObject({ text: 'Module 4 is the code generator.' });
      expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'answered' });
      const retried = JSON.stringify(requestsTo('fake-gpt')[1]!.body.messages);
      expect(retried).toContain('Modules 1-3: a single-pass parser.');
      expect(retried).not.toContain('Question 1:');
    });
  }

  it('reports the error as today when the retry overflows again: no second compaction, no loop', async () => {
    const conversation = earlier();
    const context = sessionContext({ contextWindow: 100_000 });
    fake.server.script('fake-gpt', { status: 413 }, { status: 413 });
    fake.server.script('summary-mini', { text: 'Modules 1-3: a single-pass parser.' });

    const events = await collect(runTurn(options({ conversation, context })));

    expect(fake.server.requests.map((r) => r.model)).toEqual(['fake-gpt', 'summary-mini', 'fake-gpt']);
    expect(ofType(events, 'agent_error')).toEqual([expect.objectContaining({ code: 'context_overflow' })]);
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'error' });
  });

  it('gives up at once when there is nothing to fold (the retry would fail the same way)', async () => {
    const context = sessionContext({ contextWindow: 100_000 });
    fake.server.script('fake-gpt', { status: 413 });
    const events = await collect(runTurn(options({ context })));
    expect(fake.server.requests.map((r) => r.model)).toEqual(['fake-gpt']);
    expect(ofType(events, 'compaction_skipped')).toHaveLength(1);
    expect(ofType(events, 'agent_error')).toEqual([expect.objectContaining({ code: 'context_overflow' })]);
  });
});

describe('SessionContext.compactNow (session:compact)', () => {
  it('compacts an idle conversation on request and returns the events to persist', async () => {
    const conversation = earlier();
    const context = sessionContext({ contextWindow: 100_000 });
    fake.server.script('summary-mini', { text: 'Modules 1-2 explained.' });
    const out = await context.compactNow({ conversation, signal: new AbortController().signal });
    expect(out).toMatchObject({ compacted: true });
    expect(out.events.map((e) => e.type)).toEqual(['compaction', 'context_usage']);
    expect(conversation).toHaveLength(3);
    expect(conversation[0]).toMatchObject({ text: expect.stringContaining('Modules 1-2 explained.') });
  });

  it('says why when there is nothing to compact or the summary call fails', async () => {
    const context = sessionContext({ contextWindow: 100_000 });
    const signal = new AbortController().signal;
    expect(await context.compactNow({ conversation: [], signal })).toEqual({
      compacted: false,
      reason: 'there is nothing to compact: the conversation is empty',
      events: [],
    });
    const conversation = earlier();
    fake.server.script('summary-mini', { status: 400, errorBody: { error: { message: 'bad request', type: 'invalid_request_error' } } });
    const out = await context.compactNow({ conversation, signal });
    expect(out.compacted).toBe(false);
    expect(out.reason).toMatch(/^compaction failed: the summary call to openai\/summary-mini failed/);
    expect(out.events.map((e) => e.type)).toEqual(['compaction_skipped']);
    expect(conversation).toEqual(earlier());
  });
});
