export const DEFAULT_MAX_PARALLEL_AGENTS = 4;

/** Runs at most `limit` tasks at once; the rest wait in arrival order. */
export interface Limiter {
  readonly limit: number;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly queued: number;
  /**
   * Runs `task` when a slot is free. A task still waiting when `signal` aborts never starts: its
   * promise rejects with `LimiterAbortError`.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export class LimiterAbortError extends Error {
  override readonly name = 'LimiterAbortError';
  constructor() {
    super('cancelled before it started');
  }
}

export function createLimiter(limit: number = DEFAULT_MAX_PARALLEL_AGENTS): Limiter {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`the parallel limit must be a whole number of at least 1, got ${limit}`);
  let active = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    active -= 1;
    const next = waiting.shift();
    if (next) next();
  };

  return {
    limit,
    get active() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
    run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (signal?.aborted) return Promise.reject(new LimiterAbortError());
      const start = (): Promise<T> => {
        active += 1;
        let result: Promise<T>;
        try {
          result = task();
        } catch (err) {
          result = Promise.reject(err);
        }
        return result.finally(release);
      };
      if (active < limit) return start();
      return new Promise<T>((resolve, reject) => {
        const go = () => {
          signal?.removeEventListener('abort', onAbort);
          start().then(resolve, reject);
        };
        const onAbort = () => {
          const at = waiting.indexOf(go);
          if (at >= 0) waiting.splice(at, 1);
          reject(new LimiterAbortError());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(go);
      });
    },
  };
}

/** Runs every task through `limiter`; the results come back in the order the tasks were given. */
export function runAllLimited<T>(tasks: readonly (() => Promise<T>)[], limiter: Limiter, signal?: AbortSignal): Promise<T[]> {
  return Promise.all(tasks.map((task) => limiter.run(task, signal)));
}
