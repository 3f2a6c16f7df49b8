import { describe, expect, it } from 'vitest';
import { clearLine, editLine, emptyEditor, messageOf, pasteInto, type KeyPress, type LineEditor } from './line-editor.js';

const named = (name: string): KeyPress => ({ name, ctrl: false, meta: false });
const typed = (ch: string): KeyPress => ({ ch, name: ch, ctrl: false, meta: false });

function press(editor: LineEditor, ...keys: KeyPress[]): { editor: LineEditor; submit?: string } {
  let result: { editor: LineEditor; submit?: string } = { editor };
  for (const key of keys) result = editLine(result.editor, key);
  return result;
}

describe('pasting into the input line', () => {
  it('inserts a short paste as text, newlines included, and never sends it', () => {
    const editor = pasteInto({ ...emptyEditor(), text: 'see: ', cursor: 5 }, 'one\r\ntwo\rthree');
    expect(editor.text).toBe('see: one\ntwo\nthree');
    expect(editor.cursor).toBe(editor.text.length);
    expect(editor.pastes ?? []).toEqual([]);
  });

  it('folds a large paste into one marker and sends it whole', () => {
    const trace = Array.from({ length: 120 }, (_, i) => `    at frame${i} (file.js:${i}:1)`).join('\r');
    const folded = pasteInto({ ...emptyEditor(), text: 'why? ', cursor: 5 }, trace);
    expect(folded.text).toBe('why? [pasted 120 lines]');
    const sent = press(folded, typed('!'), named('enter'));
    expect(sent.submit).toBe(`why? ${trace.replace(/\r/g, '\n')}!`);
    // The history keeps the whole message.
    expect(sent.editor.history.at(-1)).toBe(sent.submit);
  });

  it('numbers a second marker of the same size, and Backspace removes a marker whole', () => {
    const lines = Array.from({ length: 7 }, (_, i) => `l${i}`).join('\n');
    const two = pasteInto(pasteInto(emptyEditor(), lines), lines);
    expect(two.text).toBe('[pasted 7 lines][pasted 7 lines #2]');
    const one = press(two, named('backspace')).editor;
    expect(one.text).toBe('[pasted 7 lines]');
    expect(messageOf(one)).toBe(lines);
    const none = press({ ...one, cursor: 0 }, named('delete')).editor;
    expect(none.text).toBe('');
    expect(none.pastes).toEqual([]);
  });

  it('strips control characters a copy may carry, keeps tabs', () => {
    expect(pasteInto(emptyEditor(), 'a\tb\x1b[31mc\x07').text).toBe('a\tb[31mc');
  });

  it('Ctrl-C clearing keeps the whole message in the history', () => {
    const lines = Array.from({ length: 9 }, (_, i) => `row ${i}`).join('\n');
    const cleared = clearLine(pasteInto(emptyEditor(), lines));
    expect(cleared.text).toBe('');
    expect(cleared.history).toEqual([lines]);
    expect(press(cleared, named('up')).editor.text).toBe(lines);
  });
});
