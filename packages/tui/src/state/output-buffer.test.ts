import { describe, expect, it } from 'vitest';
import { MAX_OUTPUT_LINES, appendOutput, emptyOutput, outputTail, stripAnsi } from './output-buffer.js';

function feed(...chunks: string[]) {
  return chunks.reduce(appendOutput, emptyOutput());
}

describe('output buffer', () => {
  it('strips colours, cursor moves and titles', () => {
    expect(stripAnsi('\x1b[1;32mPASS\x1b[0m \x1b]0;title\x07done\x1b[2K\x07')).toBe('PASS done');
  });

  it('joins an escape sequence split across chunks', () => {
    const buffer = feed('\x1b[3', '1mred\x1b', '[0m\r', '\nnext');
    expect(buffer.lines).toEqual(['red']);
    expect(buffer.current).toBe('next');
  });

  it('lets a carriage return rewrite the line, like a progress bar', () => {
    const buffer = feed('10%\r', '50%\r100%\n');
    expect(buffer.lines).toEqual(['100%']);
  });

  it('keeps only the last lines and counts the rest', () => {
    const text = `${Array.from({ length: MAX_OUTPUT_LINES + 10 }, (_, i) => `line ${i}`).join('\n')}\n`;
    const buffer = feed(text);
    expect(buffer.lines).toHaveLength(MAX_OUTPUT_LINES);
    expect(buffer.dropped).toBe(10);
    expect(buffer.lines[0]).toBe('line 10');
    expect(outputTail(buffer, 2)).toEqual([`line ${MAX_OUTPUT_LINES + 8}`, `line ${MAX_OUTPUT_LINES + 9}`]);
  });

  it('caps very long lines', () => {
    const buffer = feed(`${'x'.repeat(5000)}\n`);
    expect(buffer.lines[0]?.length).toBeLessThan(500);
    expect(buffer.lines[0]?.endsWith('…')).toBe(true);
  });
});
