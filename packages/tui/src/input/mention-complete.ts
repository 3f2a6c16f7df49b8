import type { LineEditor } from './line-editor.js';

/**
 * `@` completion in the input line: the `@word` before the cursor (at the start of the line or
 * after a space) completes to an agent name. One match completes it with a space after; several
 * complete to what they share and are offered (the key-hint line lists them).
 */

/** The `@word` being typed at the cursor, or null: where its `@` is and what follows it. */
export function mentionAt(editor: LineEditor): { start: number; prefix: string } | null {
  const before = editor.text.slice(0, editor.cursor);
  const match = /(?:^|\s)@([A-Za-z0-9-]*)$/.exec(before);
  if (!match) return null;
  const prefix = match[1] ?? '';
  return { start: before.length - prefix.length - 1, prefix };
}

/** Names that start with what is typed after the `@` at the cursor (none when no `@word` is being typed). */
export function mentionCandidates(editor: LineEditor, names: readonly string[]): string[] {
  const at = mentionAt(editor);
  if (!at) return [];
  const prefix = at.prefix.toLowerCase();
  return names.filter((name) => name.startsWith(prefix));
}

export function completeMention(editor: LineEditor, names: readonly string[]): { editor: LineEditor; candidates: string[] } {
  const at = mentionAt(editor);
  const candidates = mentionCandidates(editor, names);
  if (!at || candidates.length === 0) return { editor, candidates };
  const after = editor.text.slice(editor.cursor);
  const only = candidates.length === 1 ? (candidates[0] as string) : null;
  const insert = only !== null ? (after.startsWith(' ') ? only : `${only} `) : sharedPrefix(candidates);
  const head = editor.text.slice(0, at.start + 1) + insert;
  const cursor = only !== null && after.startsWith(' ') ? head.length + 1 : head.length;
  return { editor: { ...editor, text: head + after, cursor, historyIndex: null }, candidates };
}

function sharedPrefix(names: readonly string[]): string {
  let prefix = names[0] ?? '';
  for (const name of names) while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}
