export const HANDBACK_MARKER = '<handback />';

export interface HandbackParse {
  /** True only when the answer ends with the marker alone on its own line, outside code. */
  handback: boolean;
  /** The answer without the marker (trailing blank lines dropped); unchanged when `handback` is false. */
  answer: string;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Strict hand-back detection (docs contracts.md, "Agents"): the answer's last non-blank line is
 * exactly `<handback />` (up to three spaces of indent, trailing spaces allowed), and that line
 * is not inside a fenced code block. The marker inside prose, inline with other text, indented
 * as code, inside a fence or followed by more text does not count.
 */
export function parseHandback(answer: string): HandbackParse {
  const lines = answer.split(/\r?\n/);
  let last = lines.length - 1;
  while (last >= 0 && (lines[last] ?? '').trim() === '') last -= 1;
  if (last < 0) return { handback: false, answer };
  const line = lines[last] ?? '';
  if (!isMarkerLine(line) || insideFence(lines.slice(0, last))) return { handback: false, answer };
  return { handback: true, answer: lines.slice(0, last).join('\n').trimEnd() };
}

function isMarkerLine(line: string): boolean {
  const indent = line.length - line.trimStart().length;
  return indent <= 3 && !line.startsWith('\t') && line.trim() === HANDBACK_MARKER;
}

/** Whether a line following `lines` would sit inside an open fenced code block (CommonMark fences). */
function insideFence(lines: readonly string[]): boolean {
  let open: { char: string; length: number } | undefined;
  for (const line of lines) {
    const match = FENCE_OPEN.exec(line);
    if (!match) continue;
    const run = match[1]!;
    if (!open) {
      // A backtick fence's info string may not contain a backtick.
      if (run[0] === '`' && line.slice(line.indexOf(run) + run.length).includes('`')) continue;
      open = { char: run[0]!, length: run.length };
    } else if (run[0] === open.char && run.length >= open.length && line.trim() === run) {
      open = undefined;
    }
  }
  return open !== undefined;
}
