import { createHash } from 'node:crypto';
import type { EventBody } from '@tandem/shared';
import { stableJson, type GateCall, type GateVerdict, type ToolGate } from '@tandem/core';
import type { Clock } from '@tandem/ai';

export interface CallRateLimitOptions {
  clock: Clock;
  /** Receives `rate_limit_wait` each time a call starts waiting. */
  emit(body: EventBody): void;
  /** requirements P5: at most this many tool calls per rolling window (default 30). */
  maxCalls?: number;
  /** Length of the rolling window (default 60 s). */
  windowMs?: number;
  /** requirements P5: the identical call (same tool, same arguments) at most once per this (default 5 s). */
  identicalCooldownMs?: number;
}

export const DEFAULT_CALL_RATE_LIMIT = { maxCalls: 30, windowMs: 60_000, identicalCooldownMs: 5_000 } as const;

export const IDENTICAL_CALL_REASON = 'identical call cooldown';

/**
 * Per-session rate limit as a gate step (requirements P5). It never refuses: an over-limit call waits
 * until a slot frees (or the identical-call cooldown passes), announcing the wait with a
 * `rate_limit_wait` event. Only an abort while waiting ends the call early.
 *
 * Memory is bounded: the window keeps the last `maxCalls` admission times in a ring, and the
 * cooldown map only holds calls admitted within the cooldown.
 */
export function createCallRateLimitGate(options: CallRateLimitOptions): ToolGate {
  const maxCalls = positiveInt(options.maxCalls ?? DEFAULT_CALL_RATE_LIMIT.maxCalls, 'maxCalls');
  const windowMs = nonNegative(options.windowMs ?? DEFAULT_CALL_RATE_LIMIT.windowMs, 'windowMs');
  const cooldownMs = nonNegative(options.identicalCooldownMs ?? DEFAULT_CALL_RATE_LIMIT.identicalCooldownMs, 'identicalCooldownMs');
  const { clock, emit } = options;

  const admitted: number[] = new Array(maxCalls).fill(Number.NEGATIVE_INFINITY);
  let next = 0; // index of the oldest of the last `maxCalls` admissions
  const lastIdentical = new Map<string, number>();
  const rateReason = `rate limit: at most ${maxCalls} tool calls per ${formatSeconds(windowMs)}`;

  const waitNeeded = (key: string, now: number): { ms: number; reason: string } | null => {
    const last = lastIdentical.get(key);
    if (last !== undefined && now - last < cooldownMs) return { ms: last + cooldownMs - now, reason: IDENTICAL_CALL_REASON };
    const oldest = admitted[next] ?? Number.NEGATIVE_INFINITY;
    if (now - oldest < windowMs) return { ms: oldest + windowMs - now, reason: rateReason };
    return null;
  };

  const admit = (key: string, now: number) => {
    admitted[next] = now;
    next = (next + 1) % maxCalls;
    if (lastIdentical.size >= 2 * maxCalls) {
      for (const [k, t] of lastIdentical) if (now - t >= cooldownMs) lastIdentical.delete(k);
    }
    lastIdentical.delete(key);
    lastIdentical.set(key, now);
  };

  return {
    async check(call: GateCall, signal: AbortSignal): Promise<GateVerdict> {
      const key = callKey(call.tool, call.args);
      for (;;) {
        if (signal.aborted) return cancelled();
        const now = clock.now();
        const wait = waitNeeded(key, now);
        if (!wait) {
          admit(key, now);
          return { allow: true };
        }
        emit({ type: 'rate_limit_wait', callId: call.callId, tool: call.tool, waitMs: wait.ms, reason: wait.reason });
        try {
          await clock.sleep(wait.ms, signal);
        } catch {
          return cancelled();
        }
      }
    },
  };
}

/** Calls this short (as tool and canonical arguments) are their own key; longer ones are keyed by a digest. */
const TEXT_KEY_MAX = 512;

/**
 * Equal for identical calls (same tool, same arguments in any key order). A digest only for long
 * arguments (a whole file's content), so the map holds no large texts; most calls are short, and
 * hashing them cost more than the rest of the check.
 */
function callKey(tool: string, args: unknown): string {
  const text = `${tool}\u0000${stableJson(args)}`;
  return text.length <= TEXT_KEY_MAX ? `t${text}` : `h${createHash('sha256').update(text).digest('base64')}`;
}

function cancelled(): GateVerdict {
  return { allow: false, reason: 'cancelled while waiting for the tool-call rate limit', outcome: 'cancelled' };
}

function positiveInt(n: number, name: string): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${name} must be a positive integer, got ${n}`);
  return n;
}

function nonNegative(n: number, name: string): number {
  if (!Number.isFinite(n) || n < 0) throw new RangeError(`${name} must be a non-negative number of milliseconds, got ${n}`);
  return n;
}

function formatSeconds(ms: number): string {
  return ms === 60_000 ? 'minute' : `${ms / 1000} s`;
}
