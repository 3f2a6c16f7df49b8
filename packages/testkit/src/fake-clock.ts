import { settle } from './settle.js';

/** Where a fake clock starts unless a test says otherwise (2023-11-14T22:13:20Z). */
export const FAKE_CLOCK_START = 1_700_000_000_000;

export interface FakeClockOptions {
  /** Epoch ms the clock starts at (default `FAKE_CLOCK_START`). */
  start?: number;
  /**
   * Auto mode: a sleep up to `autoLimitMs` moves time forward itself and resolves at once, so a
   * flow with backoffs runs instantly while `now()` and `sleeps` show how long it would have
   * waited; longer sleeps (watchdogs) still wait for `advance`.
   */
  auto?: boolean;
  /** Longest sleep auto mode resolves by itself (default 60 s). */
  autoLimitMs?: number;
}

interface Sleeper {
  at: number;
  resolve(): void;
}

/**
 * A clock that only moves when a test says so. It matches the engine's `Clock` port
 * (`now()`, `sleep(ms, signal)`) structurally, so timeouts are tested without real waiting; its
 * timers (`startTimer`) are sleeps, counted, auto-resolved and advanced like any.
 * `new FakeClock(start)` or `new FakeClock({ start, auto, autoLimitMs })`.
 */
export class FakeClock {
  private time: number;
  private readonly sleepers = new Set<Sleeper>();
  private readonly auto: boolean;
  private readonly autoLimitMs: number;
  /**
   * Every sleep asked for, in order (in auto mode: the sleeps auto mode resolved by itself,
   * not the long ones left for `advance`).
   */
  readonly sleeps: number[] = [];

  constructor(options: number | FakeClockOptions = {}) {
    const opts = typeof options === 'number' ? { start: options } : options;
    this.time = opts.start ?? FAKE_CLOCK_START;
    this.auto = opts.auto ?? false;
    this.autoLimitMs = opts.autoLimitMs ?? 60_000;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    const resolvesItself = this.auto && ms <= this.autoLimitMs;
    if (resolvesItself || !this.auto) this.sleeps.push(ms);
    if (resolvesItself) {
      this.time += Math.max(0, ms);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = {
        at: this.time + Math.max(0, ms),
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.sleepers.delete(sleeper);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.add(sleeper);
    });
  }

  /** Sleeps currently waiting for `advance`. */
  pendingSleeps(): number {
    return this.sleepers.size;
  }

  /**
   * Moves time forward by `ms`, waking every sleeper whose deadline passes in deadline order
   * (each sees `now()` at its own deadline), letting the woken code run before the next one —
   * so a sleep it starts that falls due within `ms` fires too.
   */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await settle();
      let due: Sleeper | undefined;
      for (const s of this.sleepers) if (s.at <= target && (!due || s.at < due.at)) due = s;
      if (!due) break;
      this.sleepers.delete(due);
      this.time = Math.max(this.time, due.at);
      due.resolve();
    }
    this.time = target;
    await settle();
  }

  /** Resolves once at least `count` sleeps are waiting; polls real time up to `timeoutMs`. */
  async waitForSleepers(count = 1, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.sleepers.size < count) {
      if (Date.now() > deadline) throw new Error(`fake clock: expected ${count} sleeper(s), have ${this.sleepers.size}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}
