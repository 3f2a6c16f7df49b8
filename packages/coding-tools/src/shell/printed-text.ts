import { programName } from './command-invocations.js';
import { C_ESCAPES } from './shell-quoting.js';

/**
 * What `echo …` / `printf …` print, so text they pipe into a shell can be checked like any
 * command line. Both the text as written and with backslash escapes decoded are returned
 * (bash's echo prints `\x72` as is, dash's decodes it): the checker looks at both.
 */
export type Printed = { texts: string[] } | { unverifiable: string };

/** undefined when argv is not echo/printf. */
export function printedText(argv: readonly string[] | undefined): Printed | undefined {
  const name = programName(argv?.[0] ?? '');
  if (!argv || (name !== 'echo' && name !== 'printf')) return undefined;
  const args = argv.slice(1);
  const dynamic = args.find((a) => a.includes('$') || a.includes('`'));
  if (dynamic !== undefined) return { unverifiable: `${name} prints \`${dynamic}\`, which is only known at run time` };
  if (name === 'echo') {
    let i = 0;
    while (i < args.length && /^-[neE]+$/.test(args[i]!)) i++;
    const raw = args.slice(i).join(' ');
    return { texts: both(raw, decodeEscapes(raw)) };
  }
  if (args[0] === '-v') return { texts: [] };
  const format = args[0] === '--' ? args[1] : args[0];
  const rest = args.slice(args[0] === '--' ? 2 : 1);
  if (format === undefined) return { texts: [] };
  return { texts: both(formatRaw(format, rest), printf(format, rest)) };
}

function both(a: string, b: string): string[] {
  return a === b ? [a] : [a, b];
}

const DIRECTIVE = /%([-+ #0]*\d*(?:\.\d*)?)([a-zA-Z%])/g;

/** printf's output: the format reused while arguments remain, escapes decoded. */
function printf(format: string, args: readonly string[]): string {
  let out = '';
  let next = 0;
  for (let round = 0; round < 64; round++) {
    let consumed = false;
    out += decodeEscapes(
      format.replace(DIRECTIVE, (_m, _flags, conv: string) => {
        if (conv === '%') return '%';
        const arg = args[next] ?? '';
        if (next < args.length) consumed = true;
        next++;
        return conv === 'b' ? decodeEscapes(arg) : arg;
      }),
    );
    if (!consumed || next >= args.length) break;
  }
  return out;
}

/** The same, escapes left as written. */
function formatRaw(format: string, args: readonly string[]): string {
  let next = 0;
  const once = format.replace(DIRECTIVE, (_m, _flags, conv: string) => (conv === '%' ? '%' : (args[next++] ?? '')));
  return next < args.length ? `${once}${args.slice(next).join('')}` : once;
}

/** Backslash escapes as echo -e / printf decode them; `\c` ends the output. */
export function decodeEscapes(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '\\' || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const rest = text.slice(i + 1);
    let m: RegExpExecArray | null;
    if (rest[0] === 'c') return out;
    if (rest[0]! in C_ESCAPES) {
      out += C_ESCAPES[rest[0]!];
      i += 1;
    } else if ((m = /^x([0-9a-fA-F]{1,2})/.exec(rest))) {
      out += String.fromCharCode(parseInt(m[1]!, 16));
      i += m[0].length;
    } else if ((m = /^[uU]([0-9a-fA-F]{1,8})/.exec(rest))) {
      out += String.fromCodePoint(Math.min(parseInt(m[1]!, 16), 0x10ffff));
      i += m[0].length;
    } else if ((m = /^0?([0-7]{1,3})/.exec(rest))) {
      out += String.fromCharCode(parseInt(m[1]!, 8) & 0xff);
      i += m[0].length;
    } else out += c;
  }
  return out;
}
