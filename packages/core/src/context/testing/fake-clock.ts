import type { Clock } from '../../ports/clock.js';

/**
 * A test clock: time moves only when `advance` is called; sleepers whose deadline passed
 * resolve in deadline order. Not exported from the package.
 */
export class FakeClock implements Clock {
  private time: number;
  private sleepers: Array<{ until: number; resolve: () => void }> = [];

  constructor(start = Date.UTC(2026, 11, 2, 14, 3)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
      const sleeper = { until: this.time + Math.max(0, ms), resolve };
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

  /** Number of pending sleeps (lets a test wait until the code under test is sleeping). */
  pending(): number {
    return this.sleepers.length;
  }

  async advance(ms: number): Promise<void> {
    this.time += ms;
    const due = this.sleepers.filter((s) => s.until <= this.time).sort((a, b) => a.until - b.until);
    this.sleepers = this.sleepers.filter((s) => s.until > this.time);
    for (const s of due) s.resolve();
    // Let the woken code run before the test continues.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}
