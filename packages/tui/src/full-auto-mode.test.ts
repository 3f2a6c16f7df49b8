import { describe, expect, it } from 'vitest';
import { parseInput } from './input/slash-commands.js';
import { nextMode } from './slash-actions.js';

describe('full-auto in the TUI', () => {
  it('is chosen by name (/mode full-auto), never by Shift-Tab, which leaves it for ask', () => {
    expect(parseInput('/mode full-auto')).toEqual({ kind: 'mode', mode: 'full-auto' });
    const seen = new Set<string>();
    let mode = nextMode('ask');
    for (let i = 0; i < 6; i++, mode = nextMode(mode)) seen.add(mode);
    expect([...seen].sort()).toEqual(['ask', 'auto-edit', 'read-only']);
    expect(nextMode('full-auto')).toBe('ask');
  });
});
