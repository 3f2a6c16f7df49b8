import { describe, expect, it } from 'vitest';
import { systemClock } from './clock.js';

describe('systemClock.after', () => {
  it('calls back later, not at once', async () => {
    let fired = false;
    const done = new Promise<void>((resolve) =>
      systemClock.after(5, () => {
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
    const stop = systemClock.after(1, () => fired.push('stopped timer'));
    stop();
    await new Promise<void>((resolve) => systemClock.after(10, () => resolve()));
    expect(fired).toEqual([]);
  });
});
