import { z } from 'zod';
import { UsageSchema } from './common.js';

/**
 * What a session's turns used, for one model or all of them (`session:usage`, the TUI's `/cost`):
 * the tokens of every turn (workers' included), the parts read from and written to the prompt
 * cache, and the cost of the turns whose models have a price in the catalog. `unpricedTurns`
 * counts the turns left out of `costUsd` (a model without a price).
 */
export const SessionUsageSchema = UsageSchema.extend({
  /** The model that answered (absent from the session's total). */
  model: z.string().optional(),
  turns: z.number().int().nonnegative(),
  cacheReadTokens: z.number(),
  cacheWriteTokens: z.number(),
  costUsd: z.number(),
  unpricedTurns: z.number().int().nonnegative(),
});
export type SessionUsage = z.infer<typeof SessionUsageSchema>;
