import { describe, expect, it } from 'vitest';
import { noColorWanted, stripColourParams } from './no-color.js';

describe('NO_COLOR', () => {
  it('is wanted when set and not empty', () => {
    expect(noColorWanted({ NO_COLOR: '1' })).toBe(true);
    expect(noColorWanted({ NO_COLOR: '' })).toBe(false);
    expect(noColorWanted({})).toBe(false);
  });

  it('takes colours out of SGR sequences and keeps attributes', () => {
    expect(stripColourParams('a\x1b[1;31mb\x1b[m')).toBe('a\x1b[1mb\x1b[m');
    expect(stripColourParams('\x1b[36mcyan\x1b[39m')).toBe('cyan');
    expect(stripColourParams('\x1b[7;38;5;208;48;2;1;2;3mx')).toBe('\x1b[7mx');
    expect(stripColourParams('\x1b[0;92;4m')).toBe('\x1b[0;4m');
    expect(stripColourParams('\x1b[0;44m')).toBe('\x1b[0m');
    expect(stripColourParams('\x1b[2J\x1b[H')).toBe('\x1b[2J\x1b[H');
  });
});
