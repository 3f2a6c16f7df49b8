import { describe, expect, it } from 'vitest';
import { TokenCalibration } from './calibration.js';

describe('TokenCalibration', () => {
  it('starts at 1 and learns the ratio per model from usage reports', () => {
    const cal = new TokenCalibration({ alpha: 0.5 });
    expect(cal.apply('openai/gpt-4o', 1000)).toBe(1000);
    cal.observe('openai/gpt-4o', 1000, 700); // o200k counts CJK lower than our estimate
    expect(cal.ratio('openai/gpt-4o')).toBeCloseTo(0.7);
    cal.observe('openai/gpt-4o', 1000, 600);
    expect(cal.ratio('openai/gpt-4o')).toBeCloseTo(0.65); // moved half way
    expect(cal.apply('openai/gpt-4o', 1000)).toBe(650);
    expect(cal.ratio('anthropic/claude-sonnet-4-5')).toBe(1); // other models untouched
  });

  it('converges on a steady ratio', () => {
    const cal = new TokenCalibration();
    for (let i = 0; i < 30; i++) cal.observe('m', 2000, 2600);
    expect(cal.ratio('m')).toBeCloseTo(1.3, 2);
    expect(cal.samples('m')).toBe(30);
  });

  it('ignores garbage and clamps outliers', () => {
    const cal = new TokenCalibration();
    cal.observe('m', 0, 100);
    cal.observe('m', 10, 100); // too small a sample
    cal.observe('m', 1000, Number.NaN);
    cal.observe('m', 1000, -5);
    expect(cal.samples('m')).toBe(0);
    cal.observe('m', 1000, 1_000_000);
    expect(cal.ratio('m')).toBe(4);
  });

  it('round-trips through snapshot/restore and rejects bad data', () => {
    const cal = new TokenCalibration();
    cal.observe('m', 1000, 800);
    const copy = new TokenCalibration();
    copy.restore(JSON.parse(JSON.stringify(cal.snapshot())));
    expect(copy.ratio('m')).toBeCloseTo(0.8);
    copy.restore('nonsense');
    copy.restore({ x: { ratio: 'high' } });
    expect(copy.ratio('x')).toBe(1);
  });
});
