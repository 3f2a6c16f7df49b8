import { describe, expect, it } from 'vitest';
import { checkRunFlags } from './run-flags.js';

describe('checkRunFlags', () => {
  it("defaults to text, the session's mode and limit", () => {
    expect(checkRunFlags({})).toEqual({ format: 'text', mode: undefined, maxIterations: undefined });
    expect(checkRunFlags({ outputFormat: 'stream-json', approvalMode: 'full-auto', maxIterations: '12' })).toEqual({
      format: 'stream-json',
      mode: 'full-auto',
      maxIterations: 12,
    });
  });

  it.each([
    [{ outputFormat: 'yaml' }, /--output-format takes text, json, stream-json/],
    [{ approvalMode: 'yes' }, /--approval-mode takes ask, auto-edit, read-only, full-auto/],
    [{ maxIterations: '1.5' }, /--max-iterations takes a whole number from 1 to 1000/],
    [{ maxIterations: '1001' }, /--max-iterations/],
    [{ session: 'abc', continue: true }, /--session ID or --continue, not both/],
  ])('refuses %o', (flags, message) => {
    expect(() => checkRunFlags(flags)).toThrow(message);
  });
});
