import { describe, expect, it } from 'vitest';
import type { Message } from '@tandem/ai';
import type { ModelClient } from '@tandem/ai';
import { SessionContext } from './session-context.js';

/** A compaction client that must never be called in these tests. */
const unused: ModelClient = {
  id: 'test/unused',
  stream: () => {
    throw new Error('the compaction client was called');
  },
};

const conversation: Message[] = [{ role: 'user', text: 'Explain the parser in src/parser.ts, please. '.repeat(20) }];
const request = (conv: Message[]) => ({ conversation: conv, system: 'sys', tools: [], signal: new AbortController().signal });

describe('SessionContext', () => {
  it('reserves the output budget from the model: its max output, at most 16k and a quarter of the window', () => {
    expect(
      new SessionContext({ model: { id: 'a/b', contextWindow: 200_000, maxOutput: 64_000 }, compactionClient: unused }).usage().breakdown.outputReserve,
    ).toBe(16_384);
    expect(new SessionContext({ model: { id: 'a/b', contextWindow: 8_192, maxOutput: 8_192 }, compactionClient: unused }).usage().breakdown.outputReserve).toBe(
      2_048,
    );
    expect(
      new SessionContext({ model: { id: 'a/b', contextWindow: 128_000, maxOutput: 4_096 }, compactionClient: unused }).usage().breakdown.outputReserve,
    ).toBe(4_096);
  });

  it('learns only from reports of its own model with real numbers', async () => {
    const ctx = new SessionContext({ model: { id: 'openai/main', contextWindow: 100_000, maxOutput: 1000 }, compactionClient: unused });
    await ctx.beforeRequest(request(conversation));
    ctx.afterReply({ inputTokens: 5000, model: 'anthropic/fallback' }); // served by a fallback model
    ctx.afterReply({ inputTokens: 0, model: 'openai/main' }); // no usage reported
    expect(ctx.calibration.samples('openai/main')).toBe(0);
    const raw = ctx.accountant.rawInputEstimate();
    ctx.afterReply({ inputTokens: raw * 2, model: 'openai/main' });
    expect(ctx.calibration.ratio('openai/main')).toBeCloseTo(2, 5);
  });

  it('follows a model switch: new window, new calibration key', async () => {
    const ctx = new SessionContext({ model: { id: 'openai/big', contextWindow: 1_000_000, maxOutput: 1000 }, compactionClient: unused });
    const [usage] = await ctx.beforeRequest(request(conversation));
    expect(usage).toMatchObject({ type: 'context_usage', windowTokens: 1_000_000 });
    ctx.setModel({ id: 'openai/small', contextWindow: 50_000, maxOutput: 1000 });
    const [after] = await ctx.beforeRequest(request(conversation));
    expect(after).toMatchObject({ type: 'context_usage', windowTokens: 50_000 });
    expect(ctx.modelId).toBe('openai/small');
  });
});
