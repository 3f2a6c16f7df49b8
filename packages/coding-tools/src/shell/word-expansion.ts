import { readBalanced } from './shell-quoting.js';

/**
 * What the shell would make of one word before a command sees it, as far as a parser can know:
 * brace expansion is done here (it is pure text), `~`, `$HOME`, `$PWD` and `$(pwd)` are known
 * (the checker knows the home directory and tracks the working directory), and everything else
 * that is only known at run time (a variable, a command substitution, a parameter expansion with
 * an operator, `~+`, `~-`) is named, so a refusal can say exactly what could not be verified.
 *
 * The lexer has already removed quotes, so `'$x'` (literal) looks like `$x`: such a word is
 * treated as unverifiable too. That errs on the side of refusing, never of running.
 */

/** At most this many words from one word's brace expansion; more is refused as unverifiable. */
export const MAX_BRACE_WORDS = 64;

export interface KnownNames {
  /** False when the line assigns HOME (then `~` and `$HOME` are whatever it was set to). */
  homeKnown: boolean;
  /** False when the line assigns PWD. */
  pwdKnown: boolean;
}

/** `{a,b}c` → `ac bc`, nested and repeated; `${…}`, `{}` and `{1..3}` are left as written. */
export function expandBraces(word: string): string[] | undefined {
  const out: string[] = [];
  const pending = [word];
  while (pending.length > 0) {
    const w = pending.pop()!;
    const group = firstCommaGroup(w);
    if (!group) {
      out.push(w);
      if (out.length > MAX_BRACE_WORDS) return undefined;
      continue;
    }
    const prefix = w.slice(0, group.open);
    const suffix = w.slice(group.close + 1);
    for (let k = group.parts.length - 1; k >= 0; k--) pending.push(prefix + group.parts[k]! + suffix);
    if (pending.length > MAX_BRACE_WORDS * 4) return undefined;
  }
  return out;
}

function firstCommaGroup(w: string): { open: number; close: number; parts: string[] } | undefined {
  for (let open = w.indexOf('{'); open !== -1; open = w.indexOf('{', open + 1)) {
    if (w[open - 1] === '$') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = open; i < w.length; i++) {
      const c = w[i];
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          if (commas.length === 0) break;
          const bounds = [open, ...commas, i];
          const parts = bounds.slice(0, -1).map((b, k) => w.slice(b + 1, bounds[k + 1]));
          return { open, close: i, parts };
        }
      } else if (c === ',' && depth === 1) commas.push(i);
    }
  }
  return undefined;
}

/**
 * The first part of `word` the parser cannot resolve to literal text, described for a person
 * (`the variable $D`, `the command substitution $(printf …)`), or undefined when the word is
 * literal apart from the known names.
 */
export function unverifiablePart(word: string, known: KnownNames): string | undefined {
  let w = word;
  if (known.homeKnown) w = w.replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, '~');
  if (known.pwdKnown) w = w.replace(/\$\{PWD\}|\$PWD(?![A-Za-z0-9_])|\$\(\s*pwd\s*\)|`\s*pwd\s*`/g, '.');
  if (!known.homeKnown && /^~/.test(w)) return 'the home directory `~` after the line changed HOME';
  if (/^~[+-]/.test(w)) return `the tilde expansion \`${w.slice(0, 2)}\` (the current or previous directory)`;
  for (let i = 0; i < w.length; i++) {
    const c = w[i];
    if (c === '`') {
      const end = w.indexOf('`', i + 1);
      return `the command substitution \`${short(w.slice(i, end === -1 ? w.length : end + 1))}\``;
    }
    if (c !== '$') continue;
    const n = w[i + 1];
    if (n === '(') {
      const { end } = readBalanced(w, i + 2);
      const text = w.slice(i, end);
      return text.startsWith('$((') ? `the arithmetic expansion \`${short(text)}\`` : `the command substitution \`${short(text)}\``;
    }
    if (n === '{') {
      const end = w.indexOf('}', i);
      return `the parameter expansion \`${short(w.slice(i, end === -1 ? w.length : end + 1))}\``;
    }
    if (n !== undefined && /[A-Za-z_]/.test(n)) return `the variable \`$${/^[A-Za-z_][A-Za-z0-9_]*/.exec(w.slice(i + 1))![0]}\``;
    if (n !== undefined && /[0-9@*#?!$-]/.test(n)) return `the shell parameter \`$${n}\``;
    if (n === '[') return `the arithmetic expansion \`${short(w.slice(i))}\``;
  }
  return undefined;
}

/** The word with the known names replaced (`$HOME` → `~`, `$(pwd)` → `.`), for path checks. */
export function knownForm(word: string): string {
  return word.replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, '~').replace(/\$\{PWD\}|\$PWD(?![A-Za-z0-9_])|\$\(\s*pwd\s*\)|`\s*pwd\s*`/g, '.');
}

function short(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}
