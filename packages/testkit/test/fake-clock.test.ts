import { describe, expect, it } from 'vitest';
import { FAKE_CLOCK_START, FakeClock } from '../src/fake-clock.js';

describe('FakeClock', () => {
  it('wakes sleepers in deadline order, each seeing its own deadline, and a sleep started on waking fires within the same advance', async () => {
    const clock = new FakeClock(1000);
    const seen: string[] = [];
    void clock.sleep(300).then(() => seen.push(`b@${clock.now()}`));
    void clock.sleep(100).then(async () => {
      seen.push(`a@${clock.now()}`);
      await clock.sleep(50);
      seen.push(`a2@${clock.now()}`);
    });
    expect(clock.pendingSleeps()).toBe(2);
    await clock.advance(250);
    expect(seen).toEqual(['a@1100', 'a2@1150']);
    expect(clock.now()).toBe(1250);
    await clock.advance(50);
    expect(seen).toEqual(['a@1100', 'a2@1150', 'b@1300']);
    expect(clock.pendingSleeps()).toBe(0);
    expect(clock.sleeps).toEqual([300, 100, 50]);
  });

  it('rejects an aborted sleep and forgets it', async () => {
    const clock = new FakeClock();
    expect(clock.now()).toBe(FAKE_CLOCK_START);
    const ac = new AbortController();
    const sleeping = clock.sleep(1000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(clock.pendingSleeps()).toBe(0);
    await expect(clock.sleep(1, ac.signal)).rejects.toThrow('stop');
  });

  it('auto mode resolves short sleeps by itself and leaves long ones for advance', async () => {
    const clock = new FakeClock({ start: 0, auto: true, autoLimitMs: 1000 });
    await clock.sleep(400);
    await clock.sleep(1000);
    expect(clock.now()).toBe(1400);
    let woke = false;
    void clock.sleep(5000).then(() => (woke = true));
    expect(clock.pendingSleeps()).toBe(1);
    expect(clock.sleeps).toEqual([400, 1000]);
    await clock.advance(4999);
    expect(woke).toBe(false);
    await clock.advance(1);
    expect(woke).toBe(true);
  });

  it('waitForSleepers resolves once enough sleeps wait and says so when they never come', async () => {
    const clock = new FakeClock();
    setTimeout(() => void clock.sleep(10), 5);
    await clock.waitForSleepers(1);
    await expect(clock.waitForSleepers(2, 20)).rejects.toThrow('fake clock: expected 2 sleeper(s), have 1');
  });
});
