import { describe, expect, it } from 'vitest';
import { Governor, KEY_COOLDOWN_MS } from './governor.js';
import { FakeClock } from '@tandem/testkit';

describe('governor', () => {
  it("lets a minute's worth of requests through at once, then one per refill interval", async () => {
    const clock = new FakeClock();
    const g = new Governor({ clock, requestsPerMinute: 1000 });
    for (let i = 0; i < 3; i++) await g.acquire('k', 3);
    let fourth = false;
    void g.acquire('k', 3).then(() => (fourth = true));
    await clock.advance(0);
    expect(fourth).toBe(false);
    expect(g.waitMs('k', 3)).toBe(20_000);
    await clock.advance(19_999);
    expect(fourth).toBe(false);
    await clock.advance(1);
    expect(fourth).toBe(true);
  });

  it('holds every caller of a key until a Retry-After pause ends', async () => {
    const clock = new FakeClock();
    const g = new Governor({ clock });
    g.pause('k', 2000);
    const done: number[] = [];
    void g.acquire('k', undefined).then(() => done.push(1));
    void g.acquire('k', undefined).then(() => done.push(2));
    void g.acquire('other', undefined).then(() => done.push(3));
    await clock.advance(0);
    expect(done).toEqual([3]);
    await clock.advance(2000);
    expect(done.sort()).toEqual([1, 2, 3]);
  });

  it('keeps a cooled-down key out for the whole cooldown', async () => {
    const clock = new FakeClock();
    const g = new Governor({ clock });
    g.coolDown('k', KEY_COOLDOWN_MS, 'rate_limit');
    expect(g.cooldown('k')).toEqual({ until: clock.now() + KEY_COOLDOWN_MS, reason: 'rate_limit' });
    await clock.advance(KEY_COOLDOWN_MS - 1);
    expect(g.isCooling('k')).toBe(true);
    await clock.advance(1);
    expect(g.isCooling('k')).toBe(false);
  });

  it('stops waiting when the caller aborts', async () => {
    const clock = new FakeClock();
    const g = new Governor({ clock });
    g.pause('k', 60_000);
    const ac = new AbortController();
    const pending = g.acquire('k', undefined, ac.signal);
    ac.abort(new Error('cancelled'));
    await expect(pending).rejects.toThrow('cancelled');
  });
});
