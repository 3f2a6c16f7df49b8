import type { Message, UserMessage } from '@tandem/ai';
import type { ModelClient } from '@tandem/ai';
import { systemClock, type Clock } from '@tandem/ai';
import { collectReply } from './collect-reply.js';
import { withDeadline } from './deadline.js';
import { estimateMessageTokens } from './estimate-tokens.js';
import type { CompactionPlan } from './plan-compaction.js';
import { renderTranscript } from './render-transcript.js';

/** Fields of the `compaction` session event. */
export interface CompactionStats {
  foldedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
  summary: string;
}

export type CompactionResult = { ok: true; messages: Message[]; stats: CompactionStats } | { ok: false; reason: string };

export interface RunCompactionOptions {
  /** The auxiliary (cheap) model; a plain call without tools. */
  client: ModelClient;
  /** Cap of the summary's length (default 1024). */
  maxOutputTokens?: number;
  signal: AbortSignal;
  clock?: Clock;
  /** Per-call timeout (default 60 s). */
  timeoutMs?: number;
}

export const SUMMARY_PREFIX = 'Summary of earlier conversation';

const SUMMARY_SYSTEM = [
  'You compress the earlier part of a conversation between a user and a coding agent so the agent can continue the work without it.',
  'Write a dense summary in the language of the conversation. Preserve exactly: facts learned, decisions taken and their reasons,',
  "file paths and names of functions, commands and their outcomes, errors still unresolved, the user's preferences,",
  'and open tasks with their state. Drop greetings, repetition and tool output that no longer matters.',
  'Do not invent anything. Do not address the user. Output only the summary.',
].join(' ');

/** The message that stands in for the folded prefix in the model's view. */
export function summaryMessage(summary: string, foldedMessages: number): UserMessage {
  return { role: 'user', text: `${SUMMARY_PREFIX} (${foldedMessages} messages folded):\n${summary}` };
}

/**
 * The model's view after a `compaction` event: the summary, then the messages after the fold.
 * The conversation rebuilder calls it when it replays a `compaction` event, on the messages
 * rebuilt so far, so a rebuilt view equals the live one. Nothing is deleted from the log.
 */
export function applyCompaction(messages: readonly Message[], event: { foldedMessages: number; summary: string }): Message[] {
  const folded = Math.min(Math.max(0, Math.floor(event.foldedMessages)), messages.length);
  return [summaryMessage(event.summary, folded), ...messages.slice(folded)];
}

/**
 * Where a turn that started at index `start` starts after a compaction folded `foldedMessages`
 * (the summary takes index 0): past the fold it moves back by the folded count minus the
 * summary; inside the fold it becomes 1, so a cancel keeps the summary and drops what follows.
 * The loop and the conversation rebuilder both use it, so their rollbacks agree.
 */
export function startAfterCompaction(start: number, foldedMessages: number): number {
  const folded = Math.max(0, Math.floor(foldedMessages));
  return start >= folded ? start - folded + 1 : 1;
}

/**
 * Summarises messages [0, plan.foldCount) with the auxiliary model and returns the new view
 * plus the stats for a `compaction` event. Failures come back as `{ ok: false, reason }`;
 * the caller keeps the old view.
 */
export async function runCompaction(messages: readonly Message[], plan: CompactionPlan, options: RunCompactionOptions): Promise<CompactionResult> {
  if (plan.action !== 'compact') return { ok: false, reason: plan.action === 'skip' ? plan.reason : 'compaction is not needed' };
  const folded = messages.slice(0, plan.foldCount);
  const transcript = renderTranscript(folded);
  let summary: string;
  try {
    const reply = await withDeadline(
      (signal) =>
        collectReply(
          options.client,
          {
            system: SUMMARY_SYSTEM,
            messages: [{ role: 'user', text: `Summarise this earlier part of the conversation:\n\n${transcript}` }],
            tools: [],
            maxOutputTokens: options.maxOutputTokens ?? 1024,
            temperature: 0,
          },
          signal,
        ),
      { clock: options.clock ?? systemClock, timeoutMs: options.timeoutMs ?? 60_000, signal: options.signal },
    );
    summary = reply.text.trim();
  } catch (err) {
    return { ok: false, reason: `the summary call to ${options.client.id} failed: ${(err as Error).message}` };
  }
  if (!summary) return { ok: false, reason: `${options.client.id} returned an empty summary; the conversation was left as it was` };

  const view = applyCompaction(messages, { foldedMessages: plan.foldCount, summary });
  const tokensAfter = plan.fixedTokens + plan.tailTokens + estimateMessageTokens(view[0] as Message);
  return {
    ok: true,
    messages: view,
    stats: { foldedMessages: plan.foldCount, tokensBefore: plan.tokensBefore, tokensAfter, summary },
  };
}
