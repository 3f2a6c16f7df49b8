/** Line handling shared by the line-based tools: split keeping the file's line ending. */
export interface SplitText {
  lines: string[];
  eol: '\n' | '\r\n';
  /** Whether the text ended with a line ending (kept on write). */
  trailingNewline: boolean;
}

export function splitLines(text: string): SplitText {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const trailingNewline = text.endsWith('\n');
  const body = trailingNewline ? text.slice(0, text.endsWith('\r\n') ? -2 : -1) : text;
  const lines = body === '' && !trailingNewline ? [] : body.split(/\r?\n/);
  return { lines, eol, trailingNewline };
}

export function joinLines({ lines, eol, trailingNewline }: SplitText): string {
  if (lines.length === 0) return '';
  return lines.join(eol) + (trailingNewline ? eol : '');
}

/** Content given by the model as lines, in the file's line ending. */
export function contentLines(content: string): string[] {
  const normalized = content.endsWith('\n') ? content.slice(0, content.endsWith('\r\n') ? -2 : -1) : content;
  return normalized.split(/\r?\n/);
}

/** `12\tline` numbering used by read_file, so the model can cite and edit by line. */
export function numberLines(lines: readonly string[], firstLine: number): string {
  return lines.map((line, i) => `${firstLine + i}\t${line}`).join('\n');
}

export function looksBinary(buffer: Buffer): boolean {
  const probe = buffer.subarray(0, 8192);
  return probe.includes(0);
}
