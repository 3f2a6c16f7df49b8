import { describe, expect, it } from 'vitest';
import { type Clock, startTimer, systemClock } from './clock.js';

describe('startTimer on the system clock', () => {
  it('calls back later, not at once', async () => {
    let fired = false;
    const done = new Promise<void>((resolve) =>
      startTimer(systemClock, 5, () => {
        fired = true;
        resolve();
      }),
    );
    expect(fired).toBe(false);
    await done;
    expect(fired).toBe(true);
  });

  it('never calls back once stopped, though a later timer fires', async () => {
    const fired: string[] = [];
    const stop = startTimer(systemClock, 1, () => fired.push('stopped timer'));
    stop();
    await new Promise<void>((resolve) => startTimer(systemClock, 10, () => resolve()));
    expect(fired).toEqual([]);
  });
});

describe('startTimer', () => {
  it('on a clock with only now and sleep, fires through a sleep and stops by aborting it', async () => {
    const sleeps: Array<{ ms: number; wake: () => void; signal?: AbortSignal }> = [];
    const clock: Clock = {
      now: () => 0,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          sleeps.push({ ms, wake: resolve, ...(signal ? { signal } : {}) });
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    };
    const fired: string[] = [];
    startTimer(clock, 50, () => fired.push('first'));
    const stop = startTimer(clock, 70, () => fired.push('stopped'));
    expect(sleeps.map((s) => s.ms)).toEqual([50, 70]);
    stop();
    expect(sleeps[1]!.signal?.aborted).toBe(true);
    sleeps[0]!.wake();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(fired).toEqual(['first']);
  });
});
