import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { SessionStateFold } from './session-state-fold.js';
import { UsageTotals } from './usage-totals.js';

const usage = (model: string, fields: object): SessionEvent =>
  ({
    sessionId: 's',
    seq: 1,
    ts: '2026-12-05T00:00:00.000Z',
    type: 'usage',
    turnId: 't',
    model,
    inputTokens: 100,
    outputTokens: 10,
    ...fields,
  }) as SessionEvent;

describe('UsageTotals', () => {
  it('sums turns per model; an unpriced turn adds tokens and counts apart, never a guessed cost', () => {
    const totals = new UsageTotals();
    totals.observe(usage('anthropic/a', { cacheReadTokens: 80, cacheWriteTokens: 10, costUsd: 0.5 }));
    totals.observe(usage('anthropic/a', { cacheReadTokens: 90, cacheWriteTokens: 5, costUsd: 0.25 }));
    totals.observe(usage('ollama/x', {}));
    const { total, models } = totals.current();
    expect(models).toEqual([
      { model: 'anthropic/a', turns: 2, inputTokens: 200, outputTokens: 20, cacheReadTokens: 170, cacheWriteTokens: 15, costUsd: 0.75, unpricedTurns: 0 },
      { model: 'ollama/x', turns: 1, inputTokens: 100, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, unpricedTurns: 1 },
    ]);
    expect(total).toEqual({ turns: 3, inputTokens: 300, outputTokens: 30, cacheReadTokens: 170, cacheWriteTokens: 15, costUsd: 0.75, unpricedTurns: 1 });
  });

  it('goes into the session snapshot and back; a snapshot without it (an older server) is refused so the log is read whole', () => {
    const fold = new SessionStateFold();
    fold.observe(usage('anthropic/a', { cacheReadTokens: 1, cacheWriteTokens: 2, costUsd: 0.1 }));
    const snapshot = JSON.parse(JSON.stringify(fold.snapshot()));
    expect(SessionStateFold.restore(snapshot).usage.current()).toEqual(fold.usage.current());
    const { usage: _dropped, ...older } = snapshot;
    expect(() => SessionStateFold.restore(older)).toThrow('no usage totals (written by an older server)');
    expect(() => SessionStateFold.restore({ ...snapshot, usage: [{ model: 'm', turns: 'x' }] })).toThrow('usage totals are malformed');
  });
});
