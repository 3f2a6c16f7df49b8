import { describe, expect, it } from 'vitest';
import { FakeClock } from '@tandem/testkit';
import type { Message } from '@tandem/ai';
import { planCompaction } from './plan-compaction.js';
import { applyCompaction, runCompaction, SUMMARY_PREFIX } from './run-compaction.js';
import { fakeModelServerPerFile, openaiClient } from '@tandem/ai/testing/fake-server';

const fake = fakeModelServerPerFile();

function aux(model: string) {
  return openaiClient(fake.server, model, 'test-key');
}

const conversation: Message[] = [
  { role: 'user', text: 'Please fix the failing test in packages/core/src/loop/agent-loop.test.ts' },
  {
    role: 'assistant',
    text: 'Reading the test first.',
    toolCalls: [
      {
        id: 'c1',
        name: 'read_file',
        args: { path: 'packages/core/src/loop/agent-loop.test.ts' },
        rawArgs: '{"path":"packages/core/src/loop/agent-loop.test.ts"}',
      },
    ],
  },
  { role: 'tool', callId: 'c1', name: 'read_file', output: 'it("stops after 40 iterations", ...)'.repeat(50), isError: false },
  { role: 'assistant', text: 'The limit is off by one; we decided to count iterations from 1.', toolCalls: [] },
  { role: 'user', text: 'Good. Now also update the docs.' },
  { role: 'assistant', text: 'Updating apps/docs/loop.md.', toolCalls: [] },
];

const budget = { windowTokens: 1000, toolTokens: 300, outputReserve: 300, keepRecentMessages: 2 };

describe('runCompaction through the real OpenAI adapter and the fake model server', () => {
  it('summarises the folded prefix with a plain call and returns the new view and event stats', async () => {
    const plan = planCompaction(conversation, budget);
    expect(plan.action).toBe('compact');
    if (plan.action !== 'compact') return;
    fake.server.script('aux-mini', { text: 'User asked to fix agent-loop.test.ts; decided to count iterations from 1.' });
    const result = await runCompaction(conversation, plan, { client: aux('aux-mini'), signal: new AbortController().signal });
    expect(result.ok).toBe(true);
    if (!result.ok) return;

    const request = fake.server.requests.at(-1)!;
    expect(request.model).toBe('aux-mini');
    expect(request.body.tools ?? []).toEqual([]); // a plain model call
    expect(request.body.max_completion_tokens ?? request.body.max_tokens).toBe(1024);
    const sent = JSON.stringify(request.body.messages);
    expect(sent).toMatch(/file paths/); // the instructions say what to preserve
    expect(sent).toContain('packages/core/src/loop/agent-loop.test.ts'); // the transcript
    expect(sent).not.toContain('Updating apps/docs/loop.md'); // the kept tail is not summarised

    expect(result.messages).toHaveLength(1 + conversation.length - plan.foldCount);
    expect(result.messages[0]).toMatchObject({ role: 'user' });
    expect((result.messages[0] as { text: string }).text.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(result.messages.slice(1)).toEqual(conversation.slice(plan.foldCount));
    expect(result.stats).toMatchObject({ foldedMessages: plan.foldCount, tokensBefore: plan.tokensBefore });
    expect(result.stats.tokensAfter).toBeLessThan(result.stats.tokensBefore);
    expect(result.stats.summary).toContain('count iterations from 1');

    // A rebuild from events gives the same view: applyCompaction on the messages so far.
    expect(applyCompaction(conversation, result.stats)).toEqual(result.messages);
    expect(conversation).toHaveLength(6); // nothing deleted from the input
  });

  it('returns ok:false with a readable reason when the summary call fails', async () => {
    const plan = planCompaction(conversation, budget);
    fake.server.script('aux-broken', { status: 500 });
    const result = await runCompaction(conversation, plan, { client: aux('aux-broken'), signal: new AbortController().signal });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/summary call to openai\/aux-broken failed/);
  });

  it('returns ok:false on an empty summary and on a plan that is not compact', async () => {
    const plan = planCompaction(conversation, budget);
    fake.server.script('aux-empty', { text: '   ' });
    const empty = await runCompaction(conversation, plan, { client: aux('aux-empty'), signal: new AbortController().signal });
    expect(empty).toMatchObject({ ok: false });
    const none = await runCompaction(conversation, { action: 'none', usedTokens: 1, percent: 1 }, { client: aux('x'), signal: new AbortController().signal });
    expect(none).toEqual({ ok: false, reason: 'compaction is not needed' });
  });

  it('gives up on a hanging summary call when its timeout passes (fake clock)', async () => {
    const clock = new FakeClock(Date.UTC(2026, 11, 2, 14, 3));
    const plan = planCompaction(conversation, budget);
    fake.server.script('aux-hang', { hang: true });
    const before = fake.server.requests.length;
    const pending = runCompaction(conversation, plan, { client: aux('aux-hang'), signal: new AbortController().signal, clock, timeoutMs: 5000 });
    await expect.poll(() => fake.server.requests.length).toBe(before + 1);
    await clock.advance(5000);
    const result = await pending;
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/no answer within 5 s/);
  });
});
