import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration.js';

describe('formatDuration', () => {
  it('reads as ms, seconds or minutes', () => {
    expect(formatDuration(840)).toBe('840ms');
    expect(formatDuration(3200)).toBe('3.2s');
    expect(formatDuration(125_000)).toBe('2m05s');
    expect(formatDuration(-1)).toBe('?');
    expect(formatDuration(Number.NaN)).toBe('?');
  });
});
