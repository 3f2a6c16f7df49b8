import { type Clock, startTimer } from '../ports/clock.js';

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

/**
 * One timer per stream: it sleeps until the earliest moment the stream could have stalled, then
 * looks at when the last event came; if the stream moved on meanwhile it sleeps the rest, else it
 * ends the wait of the guard with a StallError. An event costs a `clock.now()`, not a timer.
 */
class Watchdog {
  private last: number;
  private limit: number;
  private phase: 'first' | 'idle' = 'first';
  /** The consumer holds an event: silence while it works is not the provider's. */
  private held = false;
  /** Stops the timer under way (`startTimer`). */
  private disarm: (() => void) | undefined;
  /** Set by the guard while it waits for the next event; a stall settles that wait. */
  waiting: ((stall: StallError) => void) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly limits: StallLimits,
  ) {
    this.last = clock.now();
    this.limit = limits.firstEventMs;
    this.arm(this.limit);
  }

  /** An event arrived; the consumer has it until `resume()`. */
  event(): void {
    this.held = true;
    if (this.phase === 'first') {
      this.phase = 'idle';
      this.limit = this.limits.idleMs;
      // A shorter idle limit than the first wait: the sleep under way would wake too late.
      if (this.limits.idleMs < this.limits.firstEventMs) this.arm(this.limit);
    }
  }

  /** The consumer asks for the next event: the silence starts now. */
  resume(): void {
    this.held = false;
    this.last = this.clock.now();
  }

  stop(): void {
    this.disarm?.();
    this.disarm = undefined;
  }

  private arm(ms: number): void {
    this.stop();
    const disarm = startTimer(this.clock, Math.max(0, ms), () => {
      if (this.disarm === disarm) this.check();
    });
    this.disarm = disarm;
  }

  private check(): void {
    if (this.held) return this.arm(this.limit);
    const waited = this.clock.now() - this.last;
    if (waited >= this.limit) {
      this.disarm = undefined;
      this.waiting?.(new StallError(this.limit, this.phase));
      return;
    }
    this.arm(this.limit - waited);
  }
}

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
  const watchdog = new Watchdog(clock, limits);
  let finished = false;
  try {
    for (;;) {
      // Not Promise.race with a long-lived promise: that keeps a reaction per event until it settles.
      const result = await new Promise<IteratorResult<T> | StallError>((resolve, reject) => {
        watchdog.waiting = resolve;
        it.next().then(resolve, reject);
      });
      watchdog.waiting = undefined;
      if (result instanceof StallError) {
        inner.abort(result);
        finished = true;
        throw result;
      }
      if (result.done) {
        finished = true;
        return;
      }
      watchdog.event();
      yield result.value;
      watchdog.resume();
    }
  } finally {
    watchdog.stop();
    signal.removeEventListener('abort', forward);
    if (!finished) void Promise.resolve(it.return?.()).catch(() => undefined);
  }
}
