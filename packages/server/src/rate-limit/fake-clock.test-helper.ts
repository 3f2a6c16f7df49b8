import type { Clock } from '@tandem/core';

interface Timer {
  at: number;
  resolve(): void;
}

/**
 * A clock for tests: time moves only when `advance` is called, and sleeps resolve in order of
 * their deadlines. Nothing here waits on real time.
 */
export class FakeClock implements Clock {
  private t: number;
  private timers: Timer[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.timers.push(timer);
    });
  }

  /** Sleeps currently waiting. */
  get pendingSleeps(): number {
    return this.timers.length;
  }

  /** Moves time forward, firing every sleep whose deadline passes, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      await settle();
      const due = this.timers.filter((x) => x.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.resolve();
    }
    this.t = target;
    await settle();
  }
}

/** Lets pending promise callbacks run (one macrotask turn, no timers involved). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Waits until `condition` holds, letting real I/O (fs calls on the thread pool) complete in
 * between: first quick event-loop turns, then short pauses, up to `timeoutMs` of real time
 * (generous: the machine may be busy). It polls a condition; it never stands in for the clock.
 */
export async function until(condition: () => boolean, what = 'condition', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let turn = 0; !condition(); turn++) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    if (turn < 200) await settle();
    else await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
