import type { SessionUsage, Usage } from '@tandem/shared';

/** `$0.0123` under a dollar (cents would hide a turn's cost), `$4.56` from a dollar on. */
export function formatUsd(amount: number): string {
  return amount < 0.995 ? `$${amount.toFixed(4)}` : `$${amount.toFixed(2)}`;
}

/** `12,345`: a token count as people read it. */
function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/**
 * The tokens of a turn or a session: `1,200 in (900 cached, 200 written) / 80 out tokens`, the
 * cache parts only when a cache was used, then the cost when it is known.
 */
export function formatUsage(usage: Usage): string {
  const read = usage.cacheReadTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const cache = read > 0 || written > 0 ? ` (${count(read)} cached, ${count(written)} written)` : '';
  const cost = usage.costUsd !== undefined ? ` · ${formatUsd(usage.costUsd)}` : '';
  return `${count(usage.inputTokens)} in${cache} / ${count(usage.outputTokens)} out tokens${cost}`;
}

/**
 * What `/cost` shows: the session's total, the share of its prompt tokens read from the cache,
 * and one line per model; turns of a model without a price are said to be left out of the cost.
 */
export function formatSessionCost(result: { total: SessionUsage; models: SessionUsage[] }): string[] {
  const { total, models } = result;
  if (total.turns === 0) return ['cost: no turns yet in this session'];
  const cachedShare = total.inputTokens > 0 ? Math.round((total.cacheReadTokens / total.inputTokens) * 100) : 0;
  const lines = [
    `cost of this session: ${formatUsd(total.costUsd)} over ${total.turns} turn${total.turns === 1 ? '' : 's'} · ${formatUsage({ ...total, costUsd: undefined })} · ${cachedShare}% of the prompt read from the cache`,
  ];
  for (const row of models) {
    const unpriced =
      row.unpricedTurns > 0 ? ` · ${row.unpricedTurns} turn${row.unpricedTurns === 1 ? '' : 's'} without a price in the catalog (not counted)` : '';
    lines.push(`  ${row.model ?? 'unknown'}: ${formatUsd(row.costUsd)} · ${formatUsage({ ...row, costUsd: undefined })}${unpriced}`);
  }
  return lines;
}
