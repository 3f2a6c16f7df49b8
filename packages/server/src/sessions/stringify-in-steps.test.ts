import { describe, expect, it } from 'vitest';
import { stringifyInSteps } from './stringify-in-steps.js';

describe('stringifyInSteps', () => {
  it('gives what JSON.stringify gives, for small and long arrays, nested', async () => {
    const long = Array.from({ length: 1234 }, (_, i) => (i % 7 === 0 ? undefined : { i, text: `é "${i}"\n`, skip: undefined, list: [1, null, undefined] }));
    const value = { version: 1, empty: {}, none: [], nested: { long, small: [undefined, 'x', true, -0, 1.5e300] }, gone: undefined, s: 'ü\u2028' };
    expect(await stringifyInSteps(value)).toBe(JSON.stringify(value));
    expect(await stringifyInSteps([long, [long]])).toBe(JSON.stringify([long, [long]]));
    expect(await stringifyInSteps('x')).toBe('"x"');
  });

  it('lets other work run between the steps of a long array', async () => {
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    const text = await stringifyInSteps({ list: Array.from({ length: 5000 }, (_, i) => ({ i })) });
    // One call to JSON.stringify would have settled before the event loop ran anything else.
    expect(ran).toBe(true);
    expect(JSON.parse(text).list).toHaveLength(5000);
  });
});
