/**
 * Pasted text in the input line. A paste is text, newlines included: it never sends. A large
 * paste is shown folded as one marker (`[pasted 120 lines]`) that stands for the whole text,
 * which is what Enter sends. Pure, like the line editor.
 */

/** One folded paste: the marker shown in the input line and the text it stands for. */
export interface FoldedPaste {
  marker: string;
  text: string;
}

/** A paste of more lines than this, or more characters, is shown folded. */
export const FOLD_LINES = 5;
export const FOLD_CHARS = 800;

/**
 * The pasted text as it goes into the message: line ends made `\n` (terminals send CR for a
 * newline), tabs kept, other control characters (escape sequences a copy may carry) left out.
 */
export function cleanPaste(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes
  return raw.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
}

/** Lines the text spans (a final newline does not start another line). */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.replace(/\n$/, '').split('\n').length;
}

export function shouldFold(text: string): boolean {
  return lineCount(text) > FOLD_LINES || text.length > FOLD_CHARS;
}

/** `[pasted 120 lines]`, with `#2`, `#3`… when the same marker is already in use. */
export function foldMarker(text: string, taken: readonly FoldedPaste[]): string {
  const lines = lineCount(text);
  const base = lines > 1 ? `pasted ${lines} lines` : `pasted ${text.length} characters`;
  let marker = `[${base}]`;
  for (let n = 2; taken.some((paste) => paste.marker === marker); n++) marker = `[${base} #${n}]`;
  return marker;
}

/** The message with every folded paste whose marker is still whole put back in full. */
export function expandPastes(text: string, pastes: readonly FoldedPaste[] | undefined): string {
  if (!pastes || pastes.length === 0) return text;
  let out = text;
  for (const paste of pastes) {
    const at = out.indexOf(paste.marker);
    if (at >= 0) out = out.slice(0, at) + paste.text + out.slice(at + paste.marker.length);
  }
  return out;
}

/** The folded paste whose marker ends at `cursor` (Backspace removes it whole), if any. */
export function markerBefore(text: string, cursor: number, pastes: readonly FoldedPaste[] | undefined): FoldedPaste | undefined {
  return pastes?.find((paste) => cursor >= paste.marker.length && text.slice(cursor - paste.marker.length, cursor) === paste.marker);
}

/** The folded paste whose marker starts at `cursor` (Delete removes it whole), if any. */
export function markerAfter(text: string, cursor: number, pastes: readonly FoldedPaste[] | undefined): FoldedPaste | undefined {
  return pastes?.find((paste) => text.startsWith(paste.marker, cursor));
}
