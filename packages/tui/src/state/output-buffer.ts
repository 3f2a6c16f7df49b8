/**
 * Live command output as the transcript shows it: ANSI escapes stripped, carriage returns
 * applied (a progress bar rewrites its line), only the last lines kept. Pure: every append
 * returns a new buffer. Escape sequences and "\r\n" split across chunks are carried over.
 */
export interface OutputBuffer {
  /** Completed lines, oldest first, at most MAX_OUTPUT_LINES. */
  lines: string[];
  /** The line still being written (no newline yet). */
  current: string;
  /** An incomplete escape sequence or a trailing "\r" waiting for the next chunk. */
  carry: string;
  /** Completed lines dropped from the front because of the cap. */
  dropped: number;
}

export const MAX_OUTPUT_LINES = 200;
export const MAX_LINE_CHARS = 400;
const MAX_CARRY = 256;

// CSI, OSC (BEL or ST terminated), charset selection, and other two-byte ESC sequences.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\-_=>78]/g;
const CONTROL = /[\x00-\x07\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;
const INCOMPLETE_TAIL = /(?:\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*|[()*+])?|\r)$/;

export function emptyOutput(): OutputBuffer {
  return { lines: [], current: '', carry: '', dropped: 0 };
}

/** Removes terminal escape sequences and control characters (keeps \n, \r, \t). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '').replace(CONTROL, '');
}

export function appendOutput(buffer: OutputBuffer, chunk: string): OutputBuffer {
  let text = buffer.carry + chunk;
  let carry = '';
  const tail = INCOMPLETE_TAIL.exec(text);
  if (tail && tail[0].length > 0 && tail[0].length <= MAX_CARRY) {
    carry = tail[0];
    text = text.slice(0, text.length - carry.length);
  }
  const clean = stripAnsi(text);
  const segments = clean.split(/\r?\n/);
  let current = overwrite(buffer.current, segments[0] ?? '');
  const added: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    added.push(capLine(current));
    current = overwrite('', segments[i] ?? '');
  }
  if (added.length === 0) return { ...buffer, current: capLine(current), carry };
  const all = buffer.lines.concat(added);
  const excess = Math.max(0, all.length - MAX_OUTPUT_LINES);
  return {
    lines: excess > 0 ? all.slice(excess) : all,
    current: capLine(current),
    carry,
    dropped: buffer.dropped + excess,
  };
}

/** The last `count` lines including the unfinished one. */
export function outputTail(buffer: OutputBuffer, count: number): string[] {
  const all = buffer.current.length > 0 ? [...buffer.lines, buffer.current] : buffer.lines;
  return all.slice(Math.max(0, all.length - count));
}

/** A carriage return moves to column 0: what follows it replaces the line. */
function overwrite(line: string, segment: string): string {
  const lastCr = segment.lastIndexOf('\r');
  if (lastCr < 0) return line + segment;
  return segment.slice(lastCr + 1);
}

function capLine(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
}
