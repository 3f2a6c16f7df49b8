import type { SessionEvent, SessionUsage } from '@tandem/shared';

/** The JSON-safe form of `UsageTotals` (part of a session snapshot): one entry per model. */
export type UsageTotalsSnapshot = SessionUsage[];

/**
 * What a session's turns used and cost, per model that answered, folded from its `usage` events
 * (one per turn, workers' turns included) in constant memory per model. A turn without a price
 * adds its tokens and counts in `unpricedTurns`, never a guessed cost.
 */
export class UsageTotals {
  private readonly byModel = new Map<string, SessionUsage>();

  observe(event: SessionEvent): void {
    if (event.type !== 'usage') return;
    const model = typeof event.model === 'string' ? event.model : 'unknown';
    const row = this.byModel.get(model) ?? empty(model);
    row.turns += 1;
    row.inputTokens += num(event.inputTokens);
    row.outputTokens += num(event.outputTokens);
    row.cacheReadTokens += num(event.cacheReadTokens);
    row.cacheWriteTokens += num(event.cacheWriteTokens);
    if (typeof event.costUsd === 'number' && Number.isFinite(event.costUsd)) row.costUsd += event.costUsd;
    else row.unpricedTurns += 1;
    this.byModel.set(model, row);
  }

  /** Per model, most expensive first (then by tokens), and the session's total. */
  current(): { total: SessionUsage; models: SessionUsage[] } {
    const models = [...this.byModel.values()].map((row) => ({ ...row })).sort((a, b) => b.costUsd - a.costUsd || b.inputTokens - a.inputTokens);
    const total = empty(undefined);
    for (const row of models) {
      total.turns += row.turns;
      total.inputTokens += row.inputTokens;
      total.outputTokens += row.outputTokens;
      total.cacheReadTokens += row.cacheReadTokens;
      total.cacheWriteTokens += row.cacheWriteTokens;
      total.costUsd += row.costUsd;
      total.unpricedTurns += row.unpricedTurns;
    }
    return { total, models };
  }

  snapshot(): UsageTotalsSnapshot {
    return [...this.byModel.values()].map((row) => ({ ...row }));
  }

  /** Totals continuing from `snapshot()`; throws when it is malformed (the log is then read whole). */
  static restore(value: unknown): UsageTotals {
    if (!Array.isArray(value)) throw new Error('session state snapshot: no usage totals (written by an older server)');
    const totals = new UsageTotals();
    for (const row of value as Array<Partial<SessionUsage>>) {
      const counts = [row.turns, row.inputTokens, row.outputTokens, row.cacheReadTokens, row.cacheWriteTokens, row.costUsd, row.unpricedTurns];
      if (typeof row.model !== 'string' || !counts.every((n) => typeof n === 'number' && Number.isFinite(n))) {
        throw new Error('session state snapshot: usage totals are malformed');
      }
      totals.byModel.set(row.model, { ...(row as SessionUsage) });
    }
    return totals;
  }
}

function empty(model: string | undefined): SessionUsage {
  return {
    ...(model !== undefined ? { model } : {}),
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    unpricedTurns: 0,
  };
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
