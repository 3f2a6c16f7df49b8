import { z } from 'zod';
import type { ModelUsage } from './types.js';

/**
 * What a model costs, in US dollars per million tokens, and the day the figures were checked
 * against the provider's published price list. `cacheRead` / `cacheWrite` are the prices of
 * prompt tokens read from and written to the provider's cache; absent, such tokens cost as plain
 * input (OpenAI-format providers charge nothing extra to write their automatic cache).
 */
export const ModelPriceSchema = z.object({
  input: z.number().min(0),
  output: z.number().min(0),
  cacheRead: z.number().min(0).optional(),
  cacheWrite: z.number().min(0).optional(),
  checked: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'the day the price was checked, as YYYY-MM-DD'),
});
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

const PER_TOKEN = 1 / 1_000_000;

/**
 * The price of one request's tokens: the prompt tokens neither read from nor written to the cache
 * at the input price, the cache's parts at theirs, the output at the output price.
 */
export function costOf(usage: Pick<ModelUsage, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>, price: ModelPrice): number {
  const read = Math.max(0, usage.cacheReadTokens);
  const write = Math.max(0, usage.cacheWriteTokens);
  const plain = Math.max(0, usage.inputTokens - read - write);
  return (
    (plain * price.input + read * (price.cacheRead ?? price.input) + write * (price.cacheWrite ?? price.input) + usage.outputTokens * price.output) * PER_TOKEN
  );
}

/** Adds two usages; the cost is known only when both are. */
export function sumUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  const sum: ModelUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
  if (a.costUsd !== undefined && b.costUsd !== undefined) sum.costUsd = a.costUsd + b.costUsd;
  return sum;
}

/** No tokens yet, at no cost. */
export function emptyUsage(): ModelUsage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 };
}
