import type { Clock } from '../ports/clock.js';

/** A reply that went silent: nothing within `waitedMs` of the request (`first`) or of the last event (`idle`). */
export class StallError extends Error {
  override readonly name = 'StallError';
  constructor(
    readonly waitedMs: number,
    readonly phase: 'first' | 'idle',
  ) {
    super(`no data for ${Math.round(waitedMs / 1000)} s ${phase === 'first' ? 'after the request' : 'in the middle of the reply'}`);
  }
}

export interface StallLimits {
  /** Longest wait for the first event (reasoning models may think for minutes before a token). */
  firstEventMs: number;
  /** Longest silence between two events. */
  idleMs: number;
}

/** Generous defaults: well above a slow reasoning model, far below the SDKs' 10-minute timeout. */
export const DEFAULT_STALL_LIMITS: StallLimits = { firstEventMs: 300_000, idleMs: 300_000 };

const STALL: unique symbol = Symbol('stall');

/**
 * Streams `open(signal)` and aborts it when it goes silent for longer than the limits (timed on
 * the injected clock), throwing StallError. Cancelling `signal` cancels the stream as usual.
 */
export async function* guardStalls<T>(
  open: (signal: AbortSignal) => AsyncIterable<T>,
  signal: AbortSignal,
  clock: Clock,
  limits: StallLimits,
): AsyncGenerator<T> {
  const inner = new AbortController();
  const forward = () => inner.abort(signal.reason);
  if (signal.aborted) forward();
  signal.addEventListener('abort', forward, { once: true });
  const it = open(inner.signal)[Symbol.asyncIterator]();
  let first = true;
  let finished = false;
  try {
    for (;;) {
      const limit = first ? limits.firstEventMs : limits.idleMs;
      const timer = new AbortController();
      // Settles only when the limit passes; cancelling the timer leaves it pending for good.
      const timeout: Promise<typeof STALL> = clock.sleep(limit, timer.signal).then(
        () => STALL,
        () => new Promise<never>(() => undefined),
      );
      const next = it.next();
      const result = await Promise.race([next, timeout]);
      timer.abort();
      if (result === STALL) {
        const stall = new StallError(limit, first ? 'first' : 'idle');
        inner.abort(stall);
        next.catch(() => undefined);
        finished = true;
        throw stall;
      }
      if (result.done) {
        finished = true;
        return;
      }
      first = false;
      yield result.value;
    }
  } finally {
    signal.removeEventListener('abort', forward);
    if (!finished) void Promise.resolve(it.return?.()).catch(() => undefined);
  }
}
