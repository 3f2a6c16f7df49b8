import type { Clock } from '../../ports/clock.js';

interface Sleeper {
  at: number;
  resolve: () => void;
}

/**
 * A clock for tests. Manual (default): `sleep` waits until `advance` moves time past it.
 * Auto: a sleep up to `autoLimitMs` (default 60 s) moves time forward itself and resolves at
 * once, so a flow with backoffs runs instantly while `now()` and `sleeps` show how long it would
 * have waited; longer sleeps (watchdogs) still wait for `advance`.
 */
export class FakeClock implements Clock {
  private time: number;
  private sleepers: Sleeper[] = [];
  readonly sleeps: number[] = [];

  constructor(private readonly options: { start?: number; auto?: boolean; autoLimitMs?: number } = {}) {
    this.time = options.start ?? 1_700_000_000_000;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    const auto = this.options.auto && ms <= (this.options.autoLimitMs ?? 60_000);
    if (auto || !this.options.auto) this.sleeps.push(ms);
    if (auto) {
      this.time += Math.max(0, ms);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const sleeper: Sleeper = { at: this.time + Math.max(0, ms), resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          reject(signal.reason ?? new Error('aborted'));
        },
        { once: true },
      );
    });
  }

  /** Number of sleeps not yet due. */
  get pending(): number {
    return this.sleepers.length;
  }

  /** Moves time forward, waking every sleeper that is due, and lets their continuations run. */
  async advance(ms: number): Promise<void> {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.at <= this.time);
    this.sleepers = this.sleepers.filter((s) => s.at > this.time);
    for (const s of due) s.resolve();
    await settle();
  }
}

/** Lets pending promise chains and I/O callbacks run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r));
}
