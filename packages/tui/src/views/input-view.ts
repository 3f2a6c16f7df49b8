import type { LineEditor } from '../input/line-editor.js';
import { color, dim, esc } from './tags.js';

const PROMPT = '› ';
/** The prompt while the line types into the running command (Ctrl-T). */
const COMMAND_PROMPT = '$ ';
/** How a newline (Ctrl-J) shows in the one-line input. */
export const NEWLINE_MARK = '↵';

/**
 * The input line as tagged text: the prompt, the visible window of the text around the
 * cursor, and the cursor as an inverse cell. `width` is the widget's inner width. Newlines
 * (Ctrl-J, or a message composed in the editor) show as ↵. The text is always shown: flashes
 * go to the key-hint line, so nothing typed is hidden. A yes/no question takes the line while
 * it waits (the text stays in the editor underneath).
 */
export function formatInput(
  editor: LineEditor,
  width: number,
  options: { viewer: boolean; watching?: string | undefined; command?: boolean; question?: string | undefined },
): string {
  if (options.question) return color('yellow', `? ${esc(options.question)}`);
  if (options.viewer) return dim(esc(options.watching ?? 'watch-only: attached with the view token, you cannot send messages'));
  const prompt = options.command ? color('yellow', COMMAND_PROMPT) : color('cyan', PROMPT);
  const room = Math.max(4, width - PROMPT.length - 1);
  const start = Math.max(0, Math.min(editor.cursor - Math.floor(room * 0.8), editor.text.length - room + 1));
  const from = Math.max(0, start);
  const shown = editor.text.replace(/\n/g, NEWLINE_MARK);
  const visible = shown.slice(from, from + room);
  const at = editor.cursor - from;
  const before = visible.slice(0, at);
  const under = visible[at] ?? ' ';
  const after = visible.slice(at + 1);
  const hint = options.command ? 'typing into the running command: Enter sends the line (empty: just Enter)' : 'type a message, Enter to send';
  const placeholder = editor.text.length === 0 ? dim(hint) : '';
  return `${prompt}${esc(before)}{inverse}${esc(under)}{/inverse}${esc(after)}${placeholder}`;
}
