import { describe, expect, it } from 'vitest';
import { colorEnabled, paintFor } from './color.js';

const tty = { isTTY: true } as unknown as NodeJS.WritableStream;
const pipe = { isTTY: false } as unknown as NodeJS.WritableStream;

describe('colour', () => {
  it('is on for a terminal, off for a pipe, off with NO_COLOR or TERM=dumb, on with FORCE_COLOR', () => {
    expect(colorEnabled(tty, {})).toBe(true);
    expect(colorEnabled(pipe, {})).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled(tty, { TERM: 'dumb' })).toBe(false);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorEnabled(pipe, { FORCE_COLOR: '1', NO_COLOR: 'yes' })).toBe(false);
    expect(colorEnabled(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('paints with SGR codes only when enabled', () => {
    expect(paintFor(tty, {}).bold('x')).toBe('\u001b[1mx\u001b[22m');
    expect(paintFor(tty, { NO_COLOR: '1' }).bold('x')).toBe('x');
  });
});
