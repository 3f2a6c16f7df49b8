import { describe, expect, it } from 'vitest';
import { stableJson } from './stable-json.js';

describe('stableJson (one copy for the loop detector and the rate limit)', () => {
  it('gives the same text for objects that differ only in key order, at every level', () => {
    expect(stableJson({ b: 1, a: { y: [1, { d: 0, c: 0 }], x: 2 } })).toBe(stableJson({ a: { x: 2, y: [1, { c: 0, d: 0 }] }, b: 1 }));
    expect(stableJson({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });

  it('marks a cycle and a bigint instead of throwing', () => {
    const looped: Record<string, unknown> = { name: 'x' };
    looped.self = looped;
    expect(stableJson(looped)).toBe('{"name":"x","self":"[cycle]"}');
    expect(stableJson({ n: 10n })).toBe('{"n":"10n"}');
  });

  it('does not mistake a repeated (shared) object for a cycle', () => {
    const shared = { k: 1 };
    expect(stableJson([shared, shared])).toBe('[{"k":1},{"k":1}]');
  });
});
