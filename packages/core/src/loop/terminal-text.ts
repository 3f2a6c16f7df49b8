import { stripVTControlCharacters } from 'node:util';

/**
 * A terminal's bytes as plain text, chunk by chunk: escape sequences (colours, cursor moves)
 * dropped, `\r\n` and lone `\r` made `\n`. A sequence or a `\r` cut at a chunk's end is held
 * until the next chunk, so it is never shown half.
 */
export class TerminalText {
  private held = '';

  push(chunk: string): string {
    let text = this.held + chunk;
    this.held = '';
    const esc = text.lastIndexOf('\u001b');
    if (esc !== -1 && !complete(text.slice(esc))) {
      this.held = text.slice(esc);
      text = text.slice(0, esc);
    }
    if (text.endsWith('\r')) {
      this.held = `\r${this.held}`;
      text = text.slice(0, -1);
    }
    return clean(text);
  }

  end(): string {
    const rest = clean(this.held);
    this.held = '';
    return rest;
  }
}

/** Plain text of a whole terminal output. */
export function terminalText(output: string): string {
  return clean(output);
}

function clean(text: string): string {
  return stripVTControlCharacters(text).replace(/\r\n/g, '\n').replace(/\r/g, '\n');
}

/** Whether an escape sequence starting at index 0 has its final byte (CSI: a letter; OSC: BEL or ESC \). */
function complete(seq: string): boolean {
  if (seq.length < 2) return false;
  const kind = seq[1];
  if (kind === '[') return /^\u001b\[[0-?]*[ -/]*[@-~]/.test(seq);
  if (kind === ']') return /\u0007|\u001b\\/.test(seq.slice(2));
  return true;
}
