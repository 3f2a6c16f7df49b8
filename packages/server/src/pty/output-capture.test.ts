import { describe, expect, it } from 'vitest';
import { OutputCapture } from './output-capture.js';

describe('OutputCapture', () => {
  it('keeps everything while under the bound', () => {
    const c = new OutputCapture(10, 10);
    c.push('hello ');
    c.push('world');
    expect(c.text()).toBe('hello world');
  });

  it('keeps the head and the tail of a long output and says what was left out', () => {
    const c = new OutputCapture(5, 5);
    for (const chunk of ['abcde', 'fghij', 'klmno', 'pq', 'rstuv', 'wxyz']) c.push(chunk);
    const text = c.text('/logs/c1.log');
    expect(text.startsWith('abcde\n')).toBe(true);
    expect(text.endsWith('\nvwxyz')).toBe(true);
    expect(text).toContain('[... 16 characters left out; the full output is in /logs/c1.log ...]');
  });
});
