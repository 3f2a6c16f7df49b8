import { describe, expect, it } from 'vitest';
import { expandCustomCommand, splitArguments } from './custom-command.js';

describe('custom commands', () => {
  it('puts $ARGUMENTS and $1, $2 in', () => {
    expect(expandCustomCommand('Fix issue #$ARGUMENTS now.', '123 fast')).toBe('Fix issue #123 fast now.');
    expect(expandCustomCommand('Review PR $1 with priority $2 (by $3).', '456 high')).toBe('Review PR 456 with priority high (by ).');
    expect(expandCustomCommand('Say "$1".', '"two words" rest')).toBe('Say "two words".');
  });

  it('appends arguments a body does not use, and leaves a body alone without any', () => {
    expect(expandCustomCommand('Review the diff.', 'focus on tests')).toBe('Review the diff.\n\nARGUMENTS: focus on tests');
    expect(expandCustomCommand('Review the diff.', '  ')).toBe('Review the diff.');
  });

  it('splits quoted words', () => {
    expect(splitArguments(`a "b c" 'd e' f`)).toEqual(['a', 'b c', 'd e', 'f']);
  });

  it('never reads a replacement as a pattern', () => {
    expect(expandCustomCommand('x $ARGUMENTS y', '$& $1')).toBe('x $& $1 y');
  });
});
