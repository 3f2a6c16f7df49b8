import type { EngineEvent } from '../base/engine-event.js';
import type { Message } from '@tandem/ai';
import type { Clock } from '@tandem/ai';
import type { ModelClient } from '@tandem/ai';
import { maskSecrets } from '../secrets/mask-secrets.js';
import { consolidateMemory, type ConsolidationAttempt, type ConsolidationResult } from './consolidate.js';
import { consolidationOutcome } from './consolidation-outcome.js';
import type { MemoryStore } from './memory-store.js';

export interface ConsolidateSessionOptions {
  /** The session's conversation as the host holds it. */
  conversation: readonly Message[];
  /** The workspace's memory (a `WorkspaceMemory` fits). */
  workspaceMemory: { store: MemoryStore };
  /** The memory chain (`resolveMemoryChain(...).chain`). */
  chain: ReadonlyArray<{ id: string; client: ModelClient }>;
  clock: Clock;
  /** The driver who asked for `/new`, for the `conversation_cleared` event. */
  by: string;
  signal?: AbortSignal;
  /** Per model attempt (default 30 s, requirements H3). */
  timeoutMs?: number;
  /** The server's environment: literal values of its secret variables are masked in the events. */
  env?: Record<string, string | undefined>;
}

export interface SessionConsolidation {
  ok: boolean;
  /** To persist in this order: `memory_consolidated` or `memory_consolidation_failed`, then `conversation_cleared` when cleared. */
  events: EngineEvent[];
  /** The `session:new` ack. */
  ack: { consolidated: boolean; reason?: string };
  /** True only when the conversation may be cleared (requirements H4); the events already say so. */
  clear: boolean;
  attempts: ConsolidationAttempt[];
}

/**
 * `session:new` in one call (requirements H1–H4): consolidates the conversation into MEMORY.md and
 * HISTORY.md with the memory chain; on success the events end with `conversation_cleared`, on
 * failure with "memory archival failed, session not cleared: <reason>" and nothing is cleared.
 * Never throws; keys and tokens in provider messages are masked before they reach an event.
 */
export async function consolidateSession(options: ConsolidateSessionOptions): Promise<SessionConsolidation> {
  let result: ConsolidationResult;
  try {
    result = await consolidateMemory({
      conversation: options.conversation,
      store: options.workspaceMemory.store,
      chain: options.chain,
      clock: options.clock,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  } catch (err) {
    result = { ok: false, reason: `the memory files could not be read (${err instanceof Error ? err.message : String(err)})`, attempts: [] };
  }
  const outcome = consolidationOutcome(result);
  const mask = (text: string) => maskSecrets(text, options.env ? { env: options.env } : {});
  const events: EngineEvent[] = [];
  if (outcome.event?.type === 'memory_consolidated') events.push({ ...outcome.event, historyEntry: mask(outcome.event.historyEntry) });
  if (outcome.event?.type === 'memory_consolidation_failed') events.push({ ...outcome.event, reason: mask(outcome.event.reason) });
  if (outcome.clear) events.push({ type: 'conversation_cleared', by: options.by });
  const ack = outcome.ack.reason === undefined ? outcome.ack : { ...outcome.ack, reason: mask(outcome.ack.reason) };
  return { ok: result.ok, events, ack, clear: outcome.clear, attempts: result.attempts };
}
