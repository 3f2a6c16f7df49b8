import { closingBrace, readAnsiC, readBacktick, readBalanced } from './shell-quoting.js';

/**
 * A small POSIX-shell lexer for safety checks, not for execution. It splits a command line into
 * simple commands (segments) on the control operators `;` `&&` `||` `|` `|&` `&` `;;`, newlines and
 * subshell parentheses, and for each one yields its words with quoting removed, its redirections,
 * and the inner text of every command substitution (`$(…)`, backticks, `<(…)`, `>(…)`), including
 * those inside double quotes, plus here-document bodies. Callers recurse into that inner text.
 *
 * Why not shell-quote alone: its parse() drops newlines (so `a\nb` is one command), keeps backticks
 * as plain text, cannot tell `"$(x)"` (runs x) from `'$(x)'` (does not), and reads `a#b` as a
 * comment. Those gaps are exactly where a blacklist gets evaded.
 *
 * Expansions are kept as written (`$HOME`, `${HOME}`, `~`): the checker normalizes them itself.
 * Malformed input (an unterminated quote) never throws: the rest of the line becomes the word.
 */

export interface ShellRedirect {
  op: string;
  target: string;
}

export interface ShellSegment {
  /** The segment's original text, trimmed. */
  text: string;
  /** Words with quotes removed and escapes applied; redirections are not included. */
  words: string[];
  redirects: ShellRedirect[];
  /** Inner text of command and process substitutions anywhere in the segment. */
  substitutions: string[];
  /** Bodies of here-documents this segment reads from. */
  heredocs: string[];
  /** The control operator that ended the segment ('' at the end of input or a newline). */
  next: string;
}

interface PendingHeredoc {
  segment: ShellSegment;
  delimiter: string;
  stripTabs: boolean;
}

const SEPARATORS = new Set(['&&', '||', '|&', ';;', ';&', '|', '&', ';', '(', ')']);

export function lexShell(input: string): ShellSegment[] {
  return new Lexer(typeof input === 'string' ? input : '').run();
}

/** Top-level segments of a command line, each its original text trimmed (for permission decisions). */
export function splitCommandSegments(command: string): string[] {
  return lexShell(command).map((segment) => segment.text);
}

class Lexer {
  private i = 0;
  private readonly segments: ShellSegment[] = [];
  private segment = newSegment();
  private segmentStart = 0;
  private word = '';
  private wordStarted = false;
  private wordQuoted = false;
  private pendingRedirect: string | null = null;
  private heredocs: PendingHeredoc[] = [];

  constructor(private readonly s: string) {}

  run(): ShellSegment[] {
    const s = this.s;
    while (this.i < s.length) {
      const c = s[this.i]!;
      const next = s[this.i + 1];
      if (c === ' ' || c === '\t' || c === '\r') {
        this.endWord();
        this.i++;
      } else if (c === '\n') {
        this.endWord();
        this.endSegment(this.i, '');
        this.i++;
        if (this.heredocs.length > 0) this.readHeredocBodies();
        this.segmentStart = this.i;
      } else if (c === '\\') {
        if (next === '\n') this.i += 2;
        else {
          this.append(next ?? '', true);
          this.i += 2;
        }
      } else if (c === "'") {
        const end = s.indexOf("'", this.i + 1);
        const stop = end === -1 ? s.length : end;
        this.append(s.slice(this.i + 1, stop), true);
        this.i = stop + 1;
      } else if (c === '"') {
        this.readDoubleQuoted();
      } else if (c === '$') {
        this.readDollar();
      } else if (c === '`') {
        const { inner, end } = readBacktick(s, this.i + 1);
        this.segment.substitutions.push(inner);
        this.append(s.slice(this.i, end), false);
        this.i = end;
      } else if ((c === '<' || c === '>') && next === '(' && !this.wordStarted) {
        const { inner, end } = readBalanced(s, this.i + 2);
        this.segment.substitutions.push(inner);
        this.append(s.slice(this.i, end), false);
        this.i = end;
      } else if (c === '<' || c === '>') {
        this.readRedirect();
      } else if (c === '&' && next === '>') {
        this.endWord();
        const op = s[this.i + 2] === '>' ? '&>>' : '&>';
        this.i += op.length;
        this.pendingRedirect = op;
      } else if (c === '#' && !this.wordStarted) {
        while (this.i < s.length && s[this.i] !== '\n') this.i++;
      } else if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
        this.endWord();
        const two = s.slice(this.i, this.i + 2);
        const op = SEPARATORS.has(two) ? two : c;
        this.endSegment(this.i, op);
        this.i += op.length;
        this.segmentStart = this.i;
      } else {
        this.append(c, false);
        this.i++;
      }
    }
    this.endWord();
    this.endSegment(s.length, '');
    return this.segments;
  }

  private append(text: string, quoted: boolean): void {
    this.word += text;
    this.wordStarted = true;
    if (quoted) this.wordQuoted = true;
  }

  private endWord(): void {
    if (!this.wordStarted) return;
    const word = this.word;
    this.word = '';
    this.wordStarted = false;
    this.wordQuoted = false;
    if (this.pendingRedirect !== null) {
      const op = this.pendingRedirect;
      this.pendingRedirect = null;
      this.segment.redirects.push({ op, target: word });
      if (op === '<<' || op === '<<-') {
        this.heredocs.push({ segment: this.segment, delimiter: word, stripTabs: op === '<<-' });
      }
      return;
    }
    // Reserved words that open or close a group are not commands.
    if (this.segment.words.length === 0 && (word === '{' || word === '}' || word === '!')) return;
    this.segment.words.push(word);
  }

  private endSegment(at: number, op: string): void {
    this.pendingRedirect = null;
    const seg = this.segment;
    seg.text = this.s.slice(this.segmentStart, at).trim();
    seg.next = op;
    if (seg.words.length > 0 || seg.redirects.length > 0 || seg.substitutions.length > 0) this.segments.push(seg);
    this.segment = newSegment();
  }

  private readDoubleQuoted(): void {
    const s = this.s;
    let i = this.i + 1;
    let text = '';
    while (i < s.length && s[i] !== '"') {
      const c = s[i]!;
      if (c === '\\' && i + 1 < s.length) {
        const n = s[i + 1]!;
        if (n === '\n') i += 2;
        else {
          text += '$`"\\'.includes(n) ? n : c + n;
          i += 2;
        }
      } else if (c === '$' && s[i + 1] === '(') {
        const { inner, end } = readBalanced(s, i + 2);
        this.segment.substitutions.push(inner);
        text += s.slice(i, end);
        i = end;
      } else if (c === '$' && s[i + 1] === '{') {
        const end = closingBrace(s, i + 2);
        text += s.slice(i, end);
        i = end;
      } else if (c === '`') {
        const { inner, end } = readBacktick(s, i + 1);
        this.segment.substitutions.push(inner);
        text += s.slice(i, end);
        i = end;
      } else {
        text += c;
        i++;
      }
    }
    this.append(text, true);
    this.i = i + 1;
  }

  private readDollar(): void {
    const s = this.s;
    const n = s[this.i + 1];
    if (n === '(') {
      const { inner, end } = readBalanced(s, this.i + 2);
      this.segment.substitutions.push(inner);
      this.append(s.slice(this.i, end), false);
      this.i = end;
    } else if (n === '{') {
      const end = closingBrace(s, this.i + 2);
      this.append(s.slice(this.i, end), false);
      this.i = end;
    } else if (n === "'") {
      const { text, end } = readAnsiC(s, this.i + 2);
      this.append(text, true);
      this.i = end;
    } else {
      this.append('$', false);
      this.i++;
    }
  }

  private readRedirect(): void {
    const s = this.s;
    // A file-descriptor number glued to the operator (2>, 0<&) is not an argument.
    if (this.wordStarted && !this.wordQuoted && /^\d+$/.test(this.word)) {
      this.word = '';
      this.wordStarted = false;
    } else {
      this.endWord();
    }
    const ops = ['<<<', '<<-', '&>>', '>>', '>&', '>|', '<<', '<&', '<>', '>', '<'];
    const op = ops.find((candidate) => s.startsWith(candidate, this.i)) ?? s[this.i]!;
    this.i += op.length;
    this.pendingRedirect = op;
  }

  private readHeredocBodies(): void {
    const s = this.s;
    for (const doc of this.heredocs) {
      const lines: string[] = [];
      while (this.i < s.length) {
        const eol = s.indexOf('\n', this.i);
        const end = eol === -1 ? s.length : eol;
        const raw = s.slice(this.i, end);
        this.i = end + 1;
        const line = doc.stripTabs ? raw.replace(/^\t+/, '') : raw;
        if (line === doc.delimiter) break;
        lines.push(line);
      }
      doc.segment.heredocs.push(lines.join('\n'));
    }
    this.heredocs = [];
  }
}

function newSegment(): ShellSegment {
  return { text: '', words: [], redirects: [], substitutions: [], heredocs: [], next: '' };
}
