import { describe, expect, it } from 'vitest';
import { loadOnce } from './load-once.js';

describe('loadOnce', () => {
  it('loads once for every caller and remembers the value', async () => {
    let loads = 0;
    const load = loadOnce(async () => ({ n: ++loads }));
    expect(load.current()).toBeUndefined();
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(load.current()).toBe(a);
    expect(loads).toBe(1);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let calls = 0;
    const load = loadOnce(async () => {
      calls++;
      if (calls === 1) throw new Error('not installed');
      return 'ok';
    });
    await expect(load()).rejects.toThrow('not installed');
    expect(load.current()).toBeUndefined();
    expect(await load()).toBe('ok');
    expect(calls).toBe(2);
  });
});
