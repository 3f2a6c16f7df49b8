import type { LineEditor } from './line-editor.js';

/**
 * Tab completion of slash commands: `/re` at the start of the line (cursor still in the word)
 * completes to `/review ` when one command starts so, or to what several share (the key-hint
 * line lists them). Built-in and custom commands alike.
 */

/** The command name being typed (after the leading `/`), or null when the cursor is not in it. */
export function slashAt(editor: LineEditor): string | null {
  const before = editor.text.slice(0, editor.cursor);
  const match = /^\/([A-Za-z0-9_:-]*)$/.exec(before);
  return match ? (match[1] ?? '') : null;
}

export function slashCandidates(editor: LineEditor, names: readonly string[]): string[] {
  const typed = slashAt(editor);
  if (typed === null) return [];
  const prefix = typed.toLowerCase();
  return [...new Set(names)].filter((name) => name.toLowerCase().startsWith(prefix)).sort();
}

export function completeSlash(editor: LineEditor, names: readonly string[]): { editor: LineEditor; candidates: string[] } {
  const candidates = slashCandidates(editor, names);
  if (candidates.length === 0) return { editor, candidates };
  const after = editor.text.slice(editor.cursor).replace(/^\S*/, '');
  const only = candidates.length === 1 ? (candidates[0] as string) : null;
  const insert = only !== null ? `${only}${after.startsWith(' ') ? '' : ' '}` : sharedPrefix(candidates);
  const head = `/${insert}`;
  const cursor = only !== null && after.startsWith(' ') ? head.length + 1 : head.length;
  return { editor: { ...editor, text: head + after, cursor, historyIndex: null }, candidates };
}

function sharedPrefix(names: readonly string[]): string {
  let prefix = names[0] ?? '';
  for (const name of names) while (!name.toLowerCase().startsWith(prefix.toLowerCase())) prefix = prefix.slice(0, -1);
  return prefix;
}
