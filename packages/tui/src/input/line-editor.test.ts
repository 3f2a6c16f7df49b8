import { describe, expect, it } from 'vitest';
import { editLine, emptyEditor, type KeyPress, type LineEditor } from './line-editor.js';

const typed = (ch: string): KeyPress => ({ ch, name: ch.toLowerCase(), ctrl: false, meta: false });
const named = (name: string, ctrl = false): KeyPress => ({ name, ctrl, meta: false });

function keys(editor: LineEditor, ...presses: Array<KeyPress | string>) {
  let current = editor;
  const submitted: string[] = [];
  for (const press of presses) {
    const list = typeof press === 'string' ? [...press].map(typed) : [press];
    for (const key of list) {
      const result = editLine(current, key);
      current = result.editor;
      if (result.submit !== undefined) submitted.push(result.submit);
    }
  }
  return { editor: current, submitted };
}

describe('line editor', () => {
  it('types, moves the cursor and edits in the middle', () => {
    const { editor } = keys(emptyEditor(), 'helo', named('left'), 'l', named('end'), '!');
    expect(editor).toMatchObject({ text: 'hello!', cursor: 6 });
    const back = keys(editor, named('home'), named('delete'), named('right'), named('backspace'));
    expect(back.editor).toMatchObject({ text: 'llo!', cursor: 0 });
  });

  it('submits on Enter and clears the line; blank lines are not sent', () => {
    const { editor, submitted } = keys(emptyEditor(), 'run it', named('enter'), '   ', named('enter'));
    expect(submitted).toEqual(['run it']);
    expect(editor.text).toBe('');
  });

  it('walks history with Up and Down and keeps the draft', () => {
    let { editor } = keys(emptyEditor(), 'one', named('enter'), 'two', named('enter'), 'dra');
    editor = keys(editor, named('up')).editor;
    expect(editor.text).toBe('two');
    editor = keys(editor, named('up'), named('up')).editor;
    expect(editor.text).toBe('one');
    editor = keys(editor, named('down'), named('down')).editor;
    expect(editor).toMatchObject({ text: 'dra', cursor: 3, historyIndex: null });
  });

  it('supports the readline control keys', () => {
    const start = keys(emptyEditor(), 'git commit -m msg').editor;
    expect(keys(start, named('w', true)).editor.text).toBe('git commit -m ');
    expect(keys(start, named('a', true), named('k', true)).editor.text).toBe('');
    expect(keys(start, named('left'), named('left'), named('u', true)).editor).toMatchObject({ text: 'sg', cursor: 0 });
  });

  it('ignores control characters and escape', () => {
    const { editor } = keys(emptyEditor(), { ch: '\x1b', name: 'escape', ctrl: false, meta: false }, { ch: '\x07', ctrl: false, meta: false });
    expect(editor.text).toBe('');
  });
});
