import { describe, expect, it } from 'vitest';
import { formatSessionCost, formatUsage, formatUsd } from './format-cost.js';
import { parseInput } from '../input/slash-commands.js';
import type { SessionEvent } from '@tandem/shared';
import { initialState, reduce, reduceAll } from '../state/reducer.js';

describe('cost in the TUI', () => {
  it('money: four decimals under a dollar, two from a dollar on', () => {
    expect(formatUsd(0.01234)).toBe('$0.0123');
    expect(formatUsd(0)).toBe('$0.0000');
    expect(formatUsd(3.456)).toBe('$3.46');
  });

  it('usage: cache parts only when a cache was used, the cost when known', () => {
    expect(formatUsage({ inputTokens: 1200, outputTokens: 80 })).toBe('1,200 in / 80 out tokens');
    expect(formatUsage({ inputTokens: 12_000, outputTokens: 80, cacheReadTokens: 9000, cacheWriteTokens: 2500, costUsd: 0.0081 })).toBe(
      '12,000 in (9,000 cached, 2,500 written) / 80 out tokens · $0.0081',
    );
    expect(formatUsage({ inputTokens: 10, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.5 })).toBe('10 in / 1 out tokens · $0.5000');
  });

  it('/cost: the total with the cached share, one line per model, unpriced turns said apart', () => {
    const row = { turns: 2, inputTokens: 10_000, outputTokens: 300, cacheReadTokens: 8_000, cacheWriteTokens: 1_000, costUsd: 0.012, unpricedTurns: 0 };
    const lines = formatSessionCost({
      total: { ...row, turns: 3, inputTokens: 10_500, outputTokens: 320, unpricedTurns: 1 },
      models: [
        { ...row, model: 'anthropic/claude-sonnet-4-5' },
        { model: 'ollama/custom', turns: 1, inputTokens: 500, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, unpricedTurns: 1 },
      ],
    });
    expect(lines).toEqual([
      'cost of this session: $0.0120 over 3 turns · 10,500 in (8,000 cached, 1,000 written) / 320 out tokens · 76% of the prompt read from the cache',
      '  anthropic/claude-sonnet-4-5: $0.0120 · 10,000 in (8,000 cached, 1,000 written) / 300 out tokens',
      '  ollama/custom: $0.0000 · 500 in / 20 out tokens · 1 turn without a price in the catalog (not counted)',
    ]);
    const none = { turns: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, unpricedTurns: 0 };
    expect(formatSessionCost({ total: none, models: [] })).toEqual(['cost: no turns yet in this session']);
  });

  it('/cost and /reload are commands', () => {
    expect(parseInput('/cost')).toEqual({ kind: 'cost' });
    expect(parseInput('/usage')).toEqual({ kind: 'cost' });
    expect(parseInput('/reload')).toEqual({ kind: 'reload' });
  });
});

describe('usage in the view state', () => {
  const event = (seq: number, body: object) => ({
    kind: 'event' as const,
    event: { sessionId: 's1', seq, ts: '2026-01-01T00:00:00.000Z', ...body } as SessionEvent,
  });
  const attached = () =>
    reduce(initialState({ url: 'http://127.0.0.1:7777', me: 'ana', role: 'driver' }), {
      kind: 'attached',
      session: { id: 's1', title: 't', cwd: '/w', model: 'anthropic/claude-sonnet-4-5', createdAt: '2026-01-01T00:00:00.000Z', status: 'idle', lastSeq: 0 },
      role: 'driver',
    });

  it("sums a turn's usage events with their cache parts and cost; one without a cost makes the sum's cost unknown", () => {
    const usage = (seq: number, extra: object) =>
      event(seq, {
        type: 'usage',
        turnId: 't1',
        model: 'anthropic/claude-sonnet-4-5',
        inputTokens: 100,
        outputTokens: 10,
        cacheReadTokens: 60,
        cacheWriteTokens: 30,
        ...extra,
      });
    const priced = reduceAll(attached(), [
      event(1, { type: 'turn_started', turnId: 't1', model: 'm' }),
      usage(2, { costUsd: 0.01 }),
      usage(3, { costUsd: 0.02 }),
    ]);
    expect(priced.run?.usage).toEqual({ inputTokens: 200, outputTokens: 20, cacheReadTokens: 120, cacheWriteTokens: 60, costUsd: 0.03 });
    const mixed = reduceAll(priced, [usage(4, {})]);
    expect(mixed.run?.usage).toEqual({ inputTokens: 300, outputTokens: 30, cacheReadTokens: 180, cacheWriteTokens: 90 });
  });
});
