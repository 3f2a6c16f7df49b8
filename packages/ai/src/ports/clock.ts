/** Time as the engine sees it; tests pass a fake to step through timeouts without sleeping. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `fire` after `ms` unless the returned function is called first. For the timers a step
   * arms and almost always stops (a stream's stall watchdog, a tool call's timeout): no
   * AbortController and no abort listener per timer. On Node 20 a signal whose listener was
   * removed outlives young-generation GCs, ~750 bytes of old space each, collected only by a
   * full GC. Optional, so a host's own clock with `now` and `sleep` still fits: `startTimer`
   * falls back to a sleep.
   */
  after?(ms: number, fire: () => void): () => void;
}

/** `clock.after`, or on a clock without it a sleep stopped through an AbortController. */
export function startTimer(clock: Clock, ms: number, fire: () => void): () => void {
  if (clock.after) return clock.after(ms, fire);
  const stop = new AbortController();
  clock.sleep(ms, stop.signal).then(fire, () => undefined);
  return () => stop.abort();
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  after: (ms, fire) => {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};
