import { cleanPaste, expandPastes, type FoldedPaste, foldMarker, markerAfter, markerBefore, shouldFold } from './paste-fold.js';

/**
 * The input line as data: text, cursor and sent-history. Pure: every key returns a new
 * editor (and, on Enter, the text to submit). blessed only draws it.
 */
export interface KeyPress {
  /** The typed character, if the key produces one. */
  ch?: string | undefined;
  /** blessed's key name: `enter`, `backspace`, `left`, `a`, ... */
  name?: string | undefined;
  ctrl: boolean;
  meta: boolean;
  /** Shift held (blessed sets it for Shift-Tab, shifted arrows, capitals). */
  shift?: boolean;
}

export interface LineEditor {
  text: string;
  cursor: number;
  history: readonly string[];
  /** Position while browsing history with Up/Down; null when editing a fresh line. */
  historyIndex: number | null;
  /** The unsent line kept while browsing history. */
  draft: string;
  /** Large pastes shown folded: each marker in `text` stands for its pasted text (see paste-fold.ts). */
  pastes?: readonly FoldedPaste[];
}

export const MAX_HISTORY = 200;

export function emptyEditor(): LineEditor {
  return { text: '', cursor: 0, history: [], historyIndex: null, draft: '' };
}

/** The whole message the line holds: the text with folded pastes put back in full. */
export function messageOf(editor: LineEditor): string {
  return expandPastes(editor.text, editor.pastes);
}

/** An empty line; what it held goes into the history (Enter sends it there too, Ctrl-C clears it there). */
export function clearLine(editor: LineEditor): LineEditor {
  const message = messageOf(editor);
  if (message.trim().length === 0) return { ...editor, text: '', cursor: 0, historyIndex: null, draft: '', pastes: [] };
  const history = [...editor.history.filter((line) => line !== message), message].slice(-MAX_HISTORY);
  return { text: '', cursor: 0, history, historyIndex: null, draft: '', pastes: [] };
}

/**
 * Inserts pasted text at the cursor, newlines included (a paste never sends). A large paste goes
 * in as one marker, `[pasted 120 lines]`, which Enter sends as the whole text.
 */
export function pasteInto(editor: LineEditor, raw: string): LineEditor {
  const pasted = cleanPaste(raw);
  if (pasted.length === 0) return editor;
  const pastes = editor.pastes ?? [];
  const fold = shouldFold(pasted) ? { marker: foldMarker(pasted, pastes), text: pasted } : undefined;
  const inserted = fold ? fold.marker : pasted;
  const { text, cursor } = editor;
  return {
    ...editor,
    text: text.slice(0, cursor) + inserted + text.slice(cursor),
    cursor: cursor + inserted.length,
    ...(fold ? { pastes: [...pastes, fold] } : {}),
  };
}

export function editLine(editor: LineEditor, key: KeyPress): { editor: LineEditor; submit?: string } {
  const { text, cursor } = editor;
  if (key.name === 'enter') {
    const message = messageOf(editor);
    if (message.trim().length === 0) return { editor: { ...editor, text: '', cursor: 0, pastes: [] } };
    return { editor: clearLine(editor), submit: message };
  }
  // Ctrl-J (a line feed) puts a newline into the message; Enter sends it.
  if (key.name === 'linefeed' || (key.ctrl && key.name === 'j')) {
    return { editor: { ...editor, text: `${text.slice(0, cursor)}\n${text.slice(cursor)}`, cursor: cursor + 1 } };
  }
  if (key.ctrl) {
    switch (key.name) {
      case 'a':
        return { editor: { ...editor, cursor: 0 } };
      case 'e':
        return { editor: { ...editor, cursor: text.length } };
      case 'u':
        return { editor: { ...editor, text: text.slice(cursor), cursor: 0 } };
      case 'k':
        return { editor: { ...editor, text: text.slice(0, cursor) } };
      case 'w': {
        const start = wordStart(text, cursor);
        return { editor: { ...editor, text: text.slice(0, start) + text.slice(cursor), cursor: start } };
      }
      default:
        return { editor };
    }
  }
  switch (key.name) {
    case 'backspace': {
      if (cursor === 0) return { editor };
      // A folded paste goes whole: half a marker would stand for nothing.
      const folded = markerBefore(text, cursor, editor.pastes);
      const width = folded ? folded.marker.length : 1;
      return { editor: withoutPaste({ ...editor, text: text.slice(0, cursor - width) + text.slice(cursor), cursor: cursor - width }, folded) };
    }
    case 'delete': {
      const folded = markerAfter(text, cursor, editor.pastes);
      const width = folded ? folded.marker.length : 1;
      return { editor: withoutPaste({ ...editor, text: text.slice(0, cursor) + text.slice(cursor + width) }, folded) };
    }
    case 'left':
      return { editor: { ...editor, cursor: Math.max(0, cursor - 1) } };
    case 'right':
      return { editor: { ...editor, cursor: Math.min(text.length, cursor + 1) } };
    case 'home':
      return { editor: { ...editor, cursor: 0 } };
    case 'end':
      return { editor: { ...editor, cursor: text.length } };
    case 'up':
      return { editor: browse(editor, -1) };
    case 'down':
      return { editor: browse(editor, 1) };
    default:
      break;
  }
  const ch = printable(key);
  if (ch === null || key.meta) return { editor };
  return { editor: { ...editor, text: text.slice(0, cursor) + ch + text.slice(cursor), cursor: cursor + ch.length } };
}

/** The character a key types, or null for keys that type nothing (escape, arrows, controls). */
export function printable(key: KeyPress): string | null {
  if (key.ctrl || !key.ch) return null;
  if (key.name === 'tab') return '  ';
  if (/[\x00-\x1f\x7f]/.test(key.ch)) return null;
  return key.ch;
}

function withoutPaste(editor: LineEditor, paste: FoldedPaste | undefined): LineEditor {
  return paste ? { ...editor, pastes: (editor.pastes ?? []).filter((p) => p !== paste) } : editor;
}

function browse(editor: LineEditor, step: number): LineEditor {
  const { history } = editor;
  if (history.length === 0) return editor;
  const from = editor.historyIndex ?? history.length;
  const to = Math.min(history.length, Math.max(0, from + step));
  if (to === from) return editor;
  const draft = editor.historyIndex === null ? editor.text : editor.draft;
  if (to === history.length) return { ...editor, text: draft, cursor: draft.length, historyIndex: null, draft: '' };
  const text = history[to] ?? '';
  return { ...editor, text, cursor: text.length, historyIndex: to, draft };
}

function wordStart(text: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && text[i - 1] === ' ') i--;
  while (i > 0 && text[i - 1] !== ' ') i--;
  return i;
}
