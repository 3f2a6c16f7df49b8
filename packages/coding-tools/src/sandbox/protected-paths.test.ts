import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialPathOf, isWithin } from './protected-paths.js';

/** The rule as stated: `p` is `dir`, or starts with `dir` followed by a separator. */
function within(p: string, dir: string): boolean {
  if (dir === path.sep) return true;
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/** Every string of up to `n` characters from `alphabet`. */
function strings(alphabet: string, n: number): string[] {
  let level = [''];
  const all = [''];
  for (let i = 0; i < n; i++) {
    level = level.flatMap((s) => [...alphabet].map((c) => s + c));
    all.push(...level);
  }
  return all;
}

describe('isWithin', () => {
  it('a path is within a directory exactly when it is it or below it, not when a name merely starts alike', () => {
    expect(isWithin('/home/u/.ssh', '/home/u/.ssh')).toBe(true);
    expect(isWithin('/home/u/.ssh/id_rsa', '/home/u/.ssh')).toBe(true);
    expect(isWithin('/home/u/.ssh/id_rsa', '/home/u/.ssh/')).toBe(true);
    expect(isWithin('/home/u/.sshx', '/home/u/.ssh')).toBe(false);
    expect(isWithin('/home/u/.ss', '/home/u/.ssh')).toBe(false);
    expect(isWithin('/anything', '/')).toBe(true);
  });

  it('agrees with the rule as stated on every pair of short paths', () => {
    const all = strings(`${path.sep}ab`, 4);
    let pairs = 0;
    for (const dir of all) {
      for (const p of all) {
        if (isWithin(p, dir) !== within(p, dir)) throw new Error(`isWithin(${JSON.stringify(p)}, ${JSON.stringify(dir)}) disagrees with the rule`);
        pairs++;
      }
    }
    expect(pairs).toBe(all.length ** 2);
  });

  it('credential locations are found for paths inside them and only those', () => {
    expect(credentialPathOf('/home/u/.aws/credentials', '/home/u', false)).toBe('/home/u/.aws');
    expect(credentialPathOf('/home/u/.awsome/notes', '/home/u', false)).toBeUndefined();
  });
});
