import { describe, expect, it } from 'vitest';
import { emptyEditor } from './line-editor.js';
import { completeSlash } from './slash-complete.js';
import { BUILTIN_COMMANDS, parseInput } from './slash-commands.js';

describe('slash commands', () => {
  it('every listed built-in parses as one (none falls through to the custom commands)', () => {
    for (const name of BUILTIN_COMMANDS) expect(parseInput(`/${name} x`).kind, name).not.toBe('unknown');
  });

  it('/export takes an optional file, /init nothing', () => {
    expect(parseInput('/export')).toEqual({ kind: 'export', file: null });
    expect(parseInput('/export notes/run.md')).toEqual({ kind: 'export', file: 'notes/run.md' });
    expect(parseInput('/init')).toEqual({ kind: 'init' });
  });

  it('any other name is a custom command candidate, with its arguments', () => {
    expect(parseInput('/review 123 high')).toEqual({ kind: 'unknown', name: 'review', rest: '123 high' });
    expect(parseInput('/frontend:component Button')).toEqual({ kind: 'unknown', name: 'frontend:component', rest: 'Button' });
    expect(parseInput('/lint')).toEqual({ kind: 'unknown', name: 'lint' });
  });
});

describe('Tab completes slash commands', () => {
  const at = (text: string) => ({ ...emptyEditor(), text, cursor: text.length });

  it('completes one match with a space, and several to what they share', () => {
    expect(completeSlash(at('/rev'), ['review', 'model']).editor.text).toBe('/review ');
    const several = completeSlash(at('/mo'), ['model', 'mode', 'review']);
    expect(several.candidates).toEqual(['mode', 'model']);
    expect(several.editor.text).toBe('/mode');
    expect(completeSlash(at('/zz'), ['model']).candidates).toEqual([]);
  });

  it('only in the command word at the start of the line', () => {
    expect(completeSlash(at('/review some'), ['review']).candidates).toEqual([]);
    expect(completeSlash(at('say /rev'), ['review']).candidates).toEqual([]);
  });
});
