/**
 * A clock that only moves when a test says so. It matches the engine's `Clock` port
 * (`now()`, `sleep(ms, signal)`) structurally, so timeouts are tested without real waiting.
 */
export interface FakeClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Moves time forward, waking every sleeper whose deadline has passed, in deadline order. */
  advance(ms: number): Promise<void>;
  /** Sleeps currently waiting. */
  pendingSleeps(): number;
  /** Resolves once at least `count` sleeps are waiting (polls the microtask queue and timers). */
  waitForSleepers(count?: number, timeoutMs?: number): Promise<void>;
}

interface Sleeper {
  at: number;
  resolve(): void;
}

export function createFakeClock(start = 1_700_000_000_000): FakeClock {
  let now = start;
  const sleepers = new Set<Sleeper>();
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
        const sleeper: Sleeper = {
          at: now + Math.max(0, ms),
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        const onAbort = () => {
          sleepers.delete(sleeper);
          reject(signal?.reason ?? new Error('aborted'));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        sleepers.add(sleeper);
      });
    },
    async advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...sleepers].filter((s) => s.at <= target).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        now = Math.max(now, due.at);
        sleepers.delete(due);
        due.resolve();
        await new Promise((r) => setImmediate(r));
      }
      now = target;
      await new Promise((r) => setImmediate(r));
    },
    pendingSleeps: () => sleepers.size,
    async waitForSleepers(count = 1, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (sleepers.size < count) {
        if (Date.now() > deadline) throw new Error(`fake clock: expected ${count} sleeper(s), have ${sleepers.size}`);
        await new Promise((r) => setTimeout(r, 2));
      }
    },
  };
}
