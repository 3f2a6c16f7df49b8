import { describe, expect, it } from 'vitest';
import { BUILTIN_CATALOG } from './catalog-data.js';
import { CatalogEntrySchema } from './catalog-entry.js';
import { costOf, emptyUsage, ModelPriceSchema, sumUsage } from './model-price.js';
import { resolveModelClient } from './resolve.js';
import { configWith, drain, fakeEnv, HELLO, testModel } from './testing/chain-fixture.test-helper.js';
import { fakeModelServerPerTest } from './testing/fake-server.test-helper.js';
import type { ModelStreamEvent } from './types.js';

const fake = fakeModelServerPerTest();
const sonnet = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, checked: '2026-12-05' };

describe('cost arithmetic', () => {
  it('prices plain input, cache reads, cache writes and output each at its own rate', () => {
    // 100k prompt tokens: 80k read, 15k written, 5k plain; 2k out.
    const usage = { inputTokens: 100_000, cacheReadTokens: 80_000, cacheWriteTokens: 15_000, outputTokens: 2_000 };
    expect(costOf(usage, sonnet)).toBeCloseTo((5_000 * 3 + 80_000 * 0.3 + 15_000 * 3.75 + 2_000 * 15) / 1e6, 12);
    // Uncached, the same prompt costs all at the input rate.
    expect(costOf({ ...usage, cacheReadTokens: 0, cacheWriteTokens: 0 }, sonnet)).toBeCloseTo((100_000 * 3 + 2_000 * 15) / 1e6, 12);
  });

  it('without a cache price, cached tokens cost as plain input (writing an automatic cache is free)', () => {
    const price = { input: 2, output: 8, checked: '2026-12-05' };
    expect(costOf({ inputTokens: 1_000_000, cacheReadTokens: 400_000, cacheWriteTokens: 0, outputTokens: 0 }, price)).toBeCloseTo(2, 12);
    expect(costOf({ inputTokens: 1_000_000, cacheReadTokens: 400_000, cacheWriteTokens: 0, outputTokens: 0 }, { ...price, cacheRead: 0.5 })).toBeCloseTo(
      1.4,
      12,
    );
  });

  it('never counts cached tokens twice, even when a provider reports more cached than prompt tokens', () => {
    expect(costOf({ inputTokens: 10, cacheReadTokens: 20, cacheWriteTokens: 0, outputTokens: 0 }, sonnet)).toBeCloseTo((20 * 0.3) / 1e6, 15);
  });

  it('a sum is priced only while every part is', () => {
    const priced = { inputTokens: 10, outputTokens: 1, cacheReadTokens: 2, cacheWriteTokens: 3, costUsd: 0.5 };
    const sum = sumUsage(sumUsage(emptyUsage(), priced), priced);
    expect(sum).toEqual({ inputTokens: 20, outputTokens: 2, cacheReadTokens: 4, cacheWriteTokens: 6, costUsd: 1 });
    const { costUsd: _unknown, ...unpriced } = priced;
    expect(sumUsage(sum, unpriced)).not.toHaveProperty('costUsd');
  });

  it('every built-in price is well-formed and says when it was checked; Anthropic writes cost 1.25× and reads 0.1× input', () => {
    for (const entry of BUILTIN_CATALOG) {
      expect(CatalogEntrySchema.safeParse(entry).success).toBe(true);
      if (!entry.price) continue;
      expect(ModelPriceSchema.parse(entry.price).checked).toMatch(/^20\d\d-\d\d-\d\d$/);
      if (entry.protocol === 'anthropic-messages') {
        expect(entry.price.cacheWrite).toBeCloseTo(entry.price.input * 1.25, 9);
        expect(entry.price.cacheRead).toBeCloseTo(entry.price.input * 0.1, 9);
      }
    }
    expect(BUILTIN_CATALOG.filter((e) => e.provider === 'anthropic' || e.provider === 'openai').every((e) => e.price)).toBe(true);
  });

  it('the client prices each reply by the model that answered it, after a fallback too', async () => {
    fake.server.script('claude-test', { status: 401 });
    fake.server.script('gpt-test', { text: 'ok', usage: { input: 1_000_000, output: 1_000_000, cacheRead: 500_000 } });
    const config = configWith([
      testModel('anthropic/claude-test', { fallback: 'openai/gpt-test', price: sonnet }),
      testModel('openai/gpt-test', { price: { input: 2, output: 8, cacheRead: 0.5, checked: '2026-12-05' } }),
    ]);
    const out = await drain(resolveModelClient('anthropic/claude-test', { env: fakeEnv(fake.server), config }), HELLO);
    const usage = out.events.find((e): e is Extract<ModelStreamEvent, { type: 'usage' }> => e.type === 'usage')!;
    expect(usage).toMatchObject({ inputTokens: 1_000_000, cacheReadTokens: 500_000, outputTokens: 1_000_000 });
    expect(usage.costUsd).toBeCloseTo(500_000 * 2e-6 + 500_000 * 0.5e-6 + 8, 9);
  });

  it('a model without a price reports tokens and no cost', async () => {
    fake.server.enqueue({ text: 'ok' });
    const out = await drain(resolveModelClient('openai/gpt-test', { env: fakeEnv(fake.server), config: configWith([testModel('openai/gpt-test')]) }), HELLO);
    const usage = out.events.find((e) => e.type === 'usage');
    expect(usage).toMatchObject({ type: 'usage', cacheReadTokens: 0 });
    expect(usage).not.toHaveProperty('costUsd');
  });
});
