import { describe, expect, it } from 'vitest';
import { createConnectionLimiter } from './connection-limiter.js';
import { FakeClock } from '@tandem/testkit';

describe('createConnectionLimiter', () => {
  it('allows a burst, then refuses until tokens refill at the configured rate', async () => {
    const clock = new FakeClock();
    const limiter = createConnectionLimiter({ ratePerSecond: 20, burst: 40, clock });
    for (let i = 0; i < 40; i++) expect(limiter.take()).toBe(true);
    expect(limiter.take()).toBe(false);
    expect(limiter.retryAfterMs()).toBe(50);
    await clock.advance(49);
    expect(limiter.take()).toBe(false);
    await clock.advance(1);
    expect(limiter.take()).toBe(true);
    expect(limiter.take()).toBe(false);
    await clock.advance(1000); // 20 more
    let granted = 0;
    while (limiter.take()) granted++;
    expect(granted).toBe(20);
  });

  it('never stores more than the burst however long it idles', async () => {
    const clock = new FakeClock();
    const limiter = createConnectionLimiter({ ratePerSecond: 5, burst: 3, clock });
    await clock.advance(3_600_000);
    let granted = 0;
    while (limiter.take()) granted++;
    expect(granted).toBe(3);
  });

  it('refuses a configuration that could never grant anything', () => {
    expect(() => createConnectionLimiter({ ratePerSecond: 0 })).toThrow(/ratePerSecond/);
    expect(() => createConnectionLimiter({ burst: 0.5 })).toThrow(/burst/);
  });
});
