/**
 * Readers for the quoted and nested parts of a shell word, each starting just inside the
 * opening delimiter and returning where the construct ends. Unterminated input runs to the end.
 */

/** From just inside `(`, to just past the matching `)`, honouring quotes and nesting. */
export function readBalanced(s: string, start: number): { inner: string; end: number } {
  let depth = 1;
  let i = start;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') i += 2;
    else if (c === "'") {
      const close = s.indexOf("'", i + 1);
      i = close === -1 ? s.length : close + 1;
    } else if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      depth++;
      i++;
    } else if (c === ')') {
      depth--;
      if (depth === 0) return { inner: s.slice(start, i), end: i + 1 };
      i++;
    } else i++;
  }
  return { inner: s.slice(start), end: s.length };
}

export function readBacktick(s: string, start: number): { inner: string; end: number } {
  let i = start;
  let inner = '';
  while (i < s.length && s[i] !== '`') {
    if (s[i] === '\\' && i + 1 < s.length) {
      const n = s[i + 1]!;
      inner += '`$\\'.includes(n) ? n : '\\' + n;
      i += 2;
    } else {
      inner += s[i];
      i++;
    }
  }
  return { inner, end: Math.min(i + 1, s.length) };
}

export function closingBrace(s: string, start: number): number {
  const close = s.indexOf('}', start);
  return close === -1 ? s.length : close + 1;
}

/** The one-letter backslash escapes bash decodes, in `$'…'` strings and in echo -e / printf text. */
export const C_ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
};

/** `$'…'` also decodes `\?`. */
const ANSI_C_ESCAPES: Readonly<Record<string, string>> = { ...C_ESCAPES, '?': '?' };

/** `$'…'` strings: backslash escapes as bash reads them (\n, \t, \xHH, \NNN octal, \uHHHH). */
export function readAnsiC(s: string, start: number): { text: string; end: number } {
  let i = start;
  let text = '';
  while (i < s.length && s[i] !== "'") {
    if (s[i] !== '\\') {
      text += s[i];
      i++;
      continue;
    }
    const n = s[i + 1] ?? '';
    let m: RegExpMatchArray | null;
    if (n in ANSI_C_ESCAPES) {
      text += ANSI_C_ESCAPES[n];
      i += 2;
    } else if ((m = /^x([0-9a-fA-F]{1,2})/.exec(s.slice(i + 1)))) {
      text += String.fromCharCode(parseInt(m[1]!, 16));
      i += 1 + m[0].length;
    } else if ((m = /^u([0-9a-fA-F]{1,4})/.exec(s.slice(i + 1)))) {
      text += String.fromCharCode(parseInt(m[1]!, 16));
      i += 1 + m[0].length;
    } else if ((m = /^[0-7]{1,3}/.exec(s.slice(i + 1)))) {
      text += String.fromCharCode(parseInt(m[0], 8));
      i += 1 + m[0].length;
    } else {
      text += '\\' + n;
      i += 2;
    }
  }
  return { text, end: i + 1 };
}
