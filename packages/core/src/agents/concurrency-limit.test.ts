import { describe, expect, it } from 'vitest';
import { createLimiter, LimiterAbortError, runAllLimited } from './concurrency-limit.js';

/** A promise resolved from outside, to control exactly when each task ends. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every queued microtask and promise callback run (no timers). */
const drain = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

describe('createLimiter', () => {
  it('runs at most `limit` tasks at once, starts the next as one ends, and returns results in declared order', async () => {
    const limiter = createLimiter(2);
    const gates = Array.from({ length: 5 }, () => deferred<string>());
    const started: number[] = [];
    let running = 0;
    let maxOverlap = 0;
    const tasks = gates.map((gate, i) => async () => {
      started.push(i);
      running += 1;
      maxOverlap = Math.max(maxOverlap, running);
      try {
        return await gate.promise;
      } finally {
        running -= 1;
      }
    });
    const all = runAllLimited(tasks, limiter);
    await drain();
    expect(started).toEqual([0, 1]);
    expect([limiter.active, limiter.queued]).toEqual([2, 3]);

    // End them out of order: the last started finishes first.
    gates[1]!.resolve('b');
    await drain();
    expect(started).toEqual([0, 1, 2]);
    gates[2]!.resolve('c');
    await drain();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[3]!.resolve('d');
    gates[0]!.resolve('a');
    await drain();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    gates[4]!.resolve('e');
    expect(await all).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(maxOverlap).toBe(2);
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it('the default allows four at once', async () => {
    const limiter = createLimiter();
    const gates = Array.from({ length: 6 }, () => deferred<number>());
    let running = 0;
    let maxOverlap = 0;
    const all = runAllLimited(
      gates.map((gate) => async () => {
        running += 1;
        maxOverlap = Math.max(maxOverlap, running);
        const v = await gate.promise;
        running -= 1;
        return v;
      }),
      limiter,
    );
    await drain();
    expect(running).toBe(4);
    gates.forEach((g, i) => g.resolve(i));
    expect(await all).toEqual([0, 1, 2, 3, 4, 5]);
    expect(maxOverlap).toBe(4);
  });

  it('a failing task frees its slot and rejects only its own promise', async () => {
    const limiter = createLimiter(1);
    const first = limiter.run(() => Promise.reject(new Error('provider down')));
    const second = limiter.run(async () => 'ok');
    await expect(first).rejects.toThrow('provider down');
    await expect(second).resolves.toBe('ok');
    const thrown = limiter.run(() => {
      throw new Error('sync throw');
    });
    await expect(thrown).rejects.toThrow('sync throw');
    expect(limiter.active).toBe(0);
  });

  it('a queued task whose signal aborts never starts; a running one is not cut off by the limiter', async () => {
    const limiter = createLimiter(1);
    const gate = deferred<string>();
    const controller = new AbortController();
    let queuedStarted = false;
    const running = limiter.run(() => gate.promise, controller.signal);
    const queued = limiter.run(async () => {
      queuedStarted = true;
      return 'never';
    }, controller.signal);
    controller.abort();
    await expect(queued).rejects.toBeInstanceOf(LimiterAbortError);
    expect(limiter.queued).toBe(0);
    gate.resolve('finished');
    await expect(running).resolves.toBe('finished');
    expect(queuedStarted).toBe(false);
    await expect(limiter.run(async () => 1, controller.signal)).rejects.toBeInstanceOf(LimiterAbortError);
  });

  it('refuses a limit below 1', () => {
    expect(() => createLimiter(0)).toThrow(/at least 1/);
    expect(() => createLimiter(1.5)).toThrow(/whole number/);
  });
});
