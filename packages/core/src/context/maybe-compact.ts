import type { EventBody } from '@tandem/shared';
import type { Message } from '@tandem/ai';
import type { ModelClient } from '@tandem/ai';
import type { Clock } from '@tandem/ai';
import type { ContextAccountant } from './context-accountant.js';
import { planCompaction } from './plan-compaction.js';
import { runCompaction } from './run-compaction.js';

export interface MaybeCompactOptions {
  /** The session's accountant (model, window, system prompt and tools already set). */
  accountant: ContextAccountant;
  /** The auxiliary model for the summary (e.g. the first of the memory chain). */
  client: ModelClient;
  signal: AbortSignal;
  clock?: Clock;
  keepRecentTokens?: number;
  keepRecentMessages?: number;
  /** Default 0.8 (requirements C1). */
  threshold?: number;
  /** `session:compact`: compact now whatever the usage. */
  force?: boolean;
  maxOutputTokens?: number;
  timeoutMs?: number;
}

export type MaybeCompactOutcome =
  | { action: 'none' }
  | { action: 'compacted'; event: Extract<EventBody, { type: 'compaction' }> }
  | { action: 'skipped' | 'failed'; event: Extract<EventBody, { type: 'compaction_skipped' }> };

/**
 * The one call a host makes before each model request (and for `session:compact`): O(1) when no
 * compaction is due. When one is, it plans the fold, summarises with the auxiliary model and
 * replaces `conversation`'s contents in place with the compacted view, returning the event to
 * persist (`compaction`, which the conversation rebuilder replays with applyCompaction, or
 * `compaction_skipped` with the reason). On failure the conversation is left as it was.
 */
export async function maybeCompact(conversation: Message[], options: MaybeCompactOptions): Promise<MaybeCompactOutcome> {
  const { accountant } = options;
  accountant.sync(conversation);
  const threshold = options.threshold ?? 0.8;
  if (!options.force && !accountant.shouldCompact(threshold)) return { action: 'none' };
  const plan = planCompaction(conversation, {
    ...accountant.budget(),
    threshold,
    ...(options.force ? { force: true } : {}),
    ...(options.keepRecentMessages !== undefined ? { keepRecentMessages: options.keepRecentMessages } : {}),
    ...(options.keepRecentTokens !== undefined ? { keepRecentTokens: options.keepRecentTokens } : {}),
  });
  if (plan.action === 'none') return { action: 'none' };
  if (plan.action === 'skip') return { action: 'skipped', event: { type: 'compaction_skipped', reason: plan.reason } };
  const result = await runCompaction(conversation, plan, {
    client: options.client,
    signal: options.signal,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.maxOutputTokens ? { maxOutputTokens: options.maxOutputTokens } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  if (!result.ok) return { action: 'failed', event: { type: 'compaction_skipped', reason: `compaction failed: ${result.reason}` } };
  conversation.splice(0, conversation.length, ...result.messages);
  accountant.sync(conversation);
  return { action: 'compacted', event: { type: 'compaction', ...result.stats } };
}

/** The `context_usage` event for the accountant's current numbers. */
export function contextUsageEvent(accountant: ContextAccountant): Extract<EventBody, { type: 'context_usage' }> {
  const { usedTokens, windowTokens, percent } = accountant.usage();
  return { type: 'context_usage', usedTokens, windowTokens, percent };
}
