import stripAnsi from 'strip-ansi';

/** The model sees the first and last part of long output; the middle is cut. */
export const OUTPUT_HEAD_CHARS = 8 * 1024;
export const OUTPUT_TAIL_CHARS = 8 * 1024;

/**
 * The model's copy of command output: ANSI escapes and carriage-return overwrites removed,
 * long output cut to head + tail with the total size stated and where the full log is.
 */
export function modelCopyOfOutput(raw: string, logPath?: string): string {
  const clean = collapseCarriageReturns(stripAnsi(raw));
  if (clean.length <= OUTPUT_HEAD_CHARS + OUTPUT_TAIL_CHARS) return clean;
  const omitted = clean.length - OUTPUT_HEAD_CHARS - OUTPUT_TAIL_CHARS;
  const where = logPath ? `; full output: ${logPath} (read it with read_file)` : '';
  return (
    `${clean.slice(0, OUTPUT_HEAD_CHARS)}\n` +
    `… [${omitted} characters cut of ${clean.length} in all${where}] …\n` +
    clean.slice(clean.length - OUTPUT_TAIL_CHARS)
  );
}

/** "50%\r75%\r100%\n" → "100%\n": progress bars are redrawn in place. */
function collapseCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text
    .split('\n')
    .map((line) => {
      const withoutCrlf = line.endsWith('\r') ? line.slice(0, -1) : line;
      const parts = withoutCrlf.split('\r');
      return parts[parts.length - 1]!;
    })
    .join('\n');
}
