import { describe, expect, it } from 'vitest';
import { BracketedPasteFilter, PASTE_END, PASTE_START } from './bracketed-paste.js';

describe('bracketed paste filter', () => {
  it('splits keys and pastes in the order they came', () => {
    const filter = new BracketedPasteFilter();
    expect(filter.feed(`ab${PASTE_START}line 1\rline 2\r${PASTE_END}c\r`)).toEqual([
      { kind: 'keys', data: 'ab' },
      { kind: 'paste', text: 'line 1\rline 2\r' },
      { kind: 'keys', data: 'c\r' },
    ]);
  });

  it('puts markers split across reads back together', () => {
    const filter = new BracketedPasteFilter();
    const parts = [...filter.feed('x\x1b[20'), ...filter.feed('0~first'), ...filter.feed(' half\x1b[2'), ...filter.feed('01'), ...filter.feed('~y')];
    expect(parts).toEqual([
      { kind: 'keys', data: 'x' },
      { kind: 'paste', text: 'first half' },
      { kind: 'keys', data: 'y' },
    ]);
  });

  it('passes a lone Escape and other keys on at once', () => {
    const filter = new BracketedPasteFilter();
    expect(filter.feed('\x1b')).toEqual([{ kind: 'keys', data: '\x1b' }]);
    expect(filter.feed('\x1b[A')).toEqual([{ kind: 'keys', data: '\x1b[A' }]);
    expect(filter.feed('\x03')).toEqual([{ kind: 'keys', data: '\x03' }]);
  });

  it('keeps an escape sequence inside a paste as pasted text', () => {
    const filter = new BracketedPasteFilter();
    expect(filter.feed(`${PASTE_START}a\x1b[Ab${PASTE_END}`)).toEqual([{ kind: 'paste', text: 'a\x1b[Ab' }]);
  });
});
