import type { Message } from '@tandem/ai';
import { estimateMessageTokens } from './estimate-tokens.js';
import { exchangeBoundaries } from './exchange-boundaries.js';

export interface CompactionBudget {
  /** The model's context window (catalog). */
  windowTokens: number;
  /** Tokens of the tool definitions sent with every request. */
  toolTokens: number;
  /** Tokens kept free for the reply. */
  outputReserve: number;
  /** Tokens of the system prompt (default 0). */
  systemTokens?: number;
  /** Keep at least this many recent tokens verbatim (default: a quarter of the window, at most 20,000). */
  keepRecentTokens?: number;
  /** Or keep at least this many recent messages verbatim (wins over keepRecentTokens). */
  keepRecentMessages?: number;
  /** Fraction of the window at which compaction starts (default 0.8, requirements C1). */
  threshold?: number;
  /** Per-message estimates aligned with `messages` (e.g. ContextAccountant.messageEstimates()). */
  estimates?: readonly number[];
  /** Calibration multiplier applied to message and system estimates (default 1). */
  ratio?: number;
  /**
   * A compaction the user asked for (`session:compact`): plan a fold whatever the usage, and
   * skip only when nothing can be folded or the kept part alone would not fit the window.
   */
  force?: boolean;
}

export type CompactionPlan =
  | { action: 'none'; usedTokens: number; percent: number }
  | { action: 'skip'; reason: string; usedTokens: number; percent: number }
  | {
      action: 'compact';
      /** Messages [0, foldCount) are summarised; the rest is kept verbatim. */
      foldCount: number;
      /** Estimated request tokens now (all counted parts). */
      tokensBefore: number;
      /** Estimated tokens of the kept tail alone. */
      tailTokens: number;
      /** System prompt + tool definitions + output reserve: what stays whatever is folded. */
      fixedTokens: number;
      usedTokens: number;
      percent: number;
    };

/**
 * Decides whether the next request needs compaction (requirements C1) and where to cut. It triggers
 * when system + tools + messages + output reserve reach `threshold` of the window: at 80 % yes,
 * at 79 % no. The cut lies only on an exchange boundary, so a tool call is never separated from
 * its result. When the part that must stay (the tail, tools, reserve) would by itself already
 * reach the threshold, the plan is `skip`: a summary call could not help.
 */
export function planCompaction(messages: readonly Message[], budget: CompactionBudget): CompactionPlan {
  const window = budget.windowTokens;
  if (!Number.isFinite(window) || window <= 0) {
    return { action: 'skip', reason: `the model's context window is unknown (${window}); compaction needs it`, usedTokens: 0, percent: 0 };
  }
  const threshold = budget.threshold ?? 0.8;
  const ratio = budget.ratio ?? 1;
  const per = messages.map((m, i) => Math.ceil((budget.estimates?.[i] ?? estimateMessageTokens(m)) * ratio));
  const fixed = Math.ceil((budget.systemTokens ?? 0) * ratio) + budget.toolTokens + budget.outputReserve;
  const suffix = new Array<number>(per.length + 1).fill(0);
  for (let i = per.length - 1; i >= 0; i--) suffix[i] = (suffix[i + 1] as number) + (per[i] as number);
  const usedTokens = fixed + (suffix[0] as number);
  const percent = Math.round((usedTokens / window) * 1000) / 10;
  if (!budget.force && usedTokens < threshold * window) return { action: 'none', usedTokens, percent };

  const limit = budget.force ? window : threshold * window;
  const boundaries = exchangeBoundaries(messages).filter((b) => b > 0 && b < messages.length);
  const tailOf = (b: number): number => suffix[b] as number;

  // Preferred cut: the latest boundary that still keeps the requested recent part.
  let preferred: number | undefined;
  if (budget.keepRecentMessages !== undefined) {
    const maxCut = messages.length - Math.max(0, budget.keepRecentMessages);
    preferred = last(boundaries.filter((b) => b <= maxCut));
  } else {
    const keep = budget.keepRecentTokens ?? Math.min(20_000, Math.floor(window / 4));
    preferred = last(boundaries.filter((b) => tailOf(b) >= keep));
  }
  // If keeping that much would not get under the threshold, keep as little as possible.
  const candidates = [preferred, last(boundaries)].filter((b): b is number => b !== undefined);
  for (const cut of candidates) {
    if (fixed + tailOf(cut) < limit) {
      return { action: 'compact', foldCount: cut, tokensBefore: usedTokens, tailTokens: tailOf(cut), fixedTokens: fixed, usedTokens, percent };
    }
  }
  const smallest = last(boundaries);
  const reason =
    smallest === undefined
      ? `the conversation is at ${percent}% of the ${window}-token window but is one unbroken exchange (a tool call and its result cannot be separated), so there is nothing to fold; start a new session with /new`
      : `the most recent exchange alone (${messages.length - smallest} messages, ~${tailOf(smallest)} tokens) plus tool definitions and output reserve (${fixed} tokens) already reaches ${budget.force ? 100 : Math.round(threshold * 100)}% of the ${window}-token window; a summary of older turns cannot help — start a new session with /new or use a model with a larger window`;
  return { action: 'skip', reason, usedTokens, percent };
}

function last(xs: readonly number[]): number | undefined {
  return xs.length ? xs[xs.length - 1] : undefined;
}
