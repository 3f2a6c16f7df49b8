/**
 * Bracketed paste (xterm's mode 2004): once the TUI asks for it, the terminal wraps pasted text
 * in `ESC[200~ … ESC[201~`. This splits the terminal's input into keys (passed on to blessed as
 * they came) and pastes (text for the input line, never keys: a pasted newline must not send).
 * Markers split across reads are put back together. Pure apart from its own buffer.
 */

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
/** Written to the terminal to turn bracketed paste on, and off again before the screen closes. */
export const ENABLE_BRACKETED_PASTE = '\x1b[?2004h';
export const DISABLE_BRACKETED_PASTE = '\x1b[?2004l';

export type InputPart = { kind: 'keys'; data: string } | { kind: 'paste'; text: string };

export class BracketedPasteFilter {
  /** Inside a paste: the text so far. */
  private paste: string | null = null;
  /** A tail held back because it may be the start of a marker the next read completes. */
  private held = '';

  /** The parts of one read, in order. */
  feed(chunk: string): InputPart[] {
    let data = this.held + chunk;
    this.held = '';
    const parts: InputPart[] = [];
    while (data.length > 0) {
      if (this.paste !== null) {
        const end = data.indexOf(PASTE_END);
        if (end >= 0) {
          parts.push({ kind: 'paste', text: this.paste + data.slice(0, end) });
          this.paste = null;
          data = data.slice(end + PASTE_END.length);
          continue;
        }
        const keep = partialMarkerAt(data, PASTE_END, 1);
        this.paste += data.slice(0, data.length - keep);
        this.held = data.slice(data.length - keep);
        break;
      }
      const start = data.indexOf(PASTE_START);
      if (start >= 0) {
        if (start > 0) parts.push({ kind: 'keys', data: data.slice(0, start) });
        this.paste = '';
        data = data.slice(start + PASTE_START.length);
        continue;
      }
      // A lone ESC is the Escape key: pass it on now. Only `ESC[` and longer are held back.
      const keep = partialMarkerAt(data, PASTE_START, 2);
      if (data.length > keep) parts.push({ kind: 'keys', data: data.slice(0, data.length - keep) });
      this.held = data.slice(data.length - keep);
      break;
    }
    return parts;
  }
}

/** How many characters at the end of `data` are the first (at least `min`) characters of `marker`. */
function partialMarkerAt(data: string, marker: string, min: number): number {
  for (let n = Math.min(marker.length - 1, data.length); n >= min; n--) {
    if (data.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}
