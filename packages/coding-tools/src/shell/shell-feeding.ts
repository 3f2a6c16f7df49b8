import { isShellProgram, programName, resolveInvocations, shellScriptArgument } from './command-invocations.js';
import { operands } from './command-targets.js';
import { printedText } from './printed-text.js';
import { lexShell, type ShellSegment } from './shell-lexer.js';
import type { Finding } from './unverifiable-rules.js';

/**
 * Text a program runs as code without it being written in the command line: a shell or
 * `source` reading its program from a pipe, a here-document, a here-string or a process
 * substitution (`curl … | sh`, `base64 -d <<< … | bash`, `sh <(…)`, `source /dev/stdin`), or an
 * interpreter reading its program the same way. Literal text (`echo 'ls' | sh`, a here-document)
 * is returned to be checked like any command line; text only known at run time is refused.
 */
export interface FedProgram {
  /** Program text to check (shell source for shells, code for interpreters). */
  texts: string[];
  refuse?: Finding;
}

const STDIN_PATHS = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/(self|\d+)\/fd\/0)$/;

/** Where a shell, `source`, `at` gets its program: inline, a file, stdin, or a process substitution. */
function programSource(argv: readonly string[], name: string): 'inline' | 'file' | 'stdin' | 'stdin-path' | { process: string } {
  const args = argv.slice(1);
  if (name === 'source' || name === '.') {
    const file = args.find((a) => a !== '--') ?? '';
    return sourceOf(file);
  }
  if (name === 'at' || name === 'batch') return args.some((a) => a === '-f' || a.startsWith('-f')) ? 'file' : 'stdin';
  if (shellScriptArgument(args) !== undefined) return 'inline';
  let i = 0;
  let flags = '';
  while (i < args.length) {
    const a = args[i]!;
    if (a === '--' || a === '-') {
      i += a === '--' ? 1 : 0;
      break;
    }
    if (a === '-o' || a === '+o' || a === '-O' || a === '+O' || a === '--rcfile' || a === '--init-file') i += 2;
    else if (/^[-+][A-Za-z]+$/.test(a)) {
      flags += a.slice(1);
      i++;
    } else if (a.startsWith('--')) i++;
    else break;
  }
  if (flags.includes('s')) return 'stdin';
  const operand = args[i];
  return operand === undefined ? 'stdin' : sourceOf(operand);
}

function sourceOf(word: string): 'file' | 'stdin' | 'stdin-path' | { process: string } {
  if (STDIN_PATHS.test(word)) return word === '-' ? 'stdin' : 'stdin-path';
  if (/^<\([\s\S]*\)$/.test(word)) return { process: word.slice(2, -1) };
  return word === '' ? 'stdin' : 'file';
}

/** Whether `name` (as called by argv) takes a program the blacklist must look into. */
export function readsProgram(name: string): boolean {
  return isShellProgram(name) || name === 'source' || name === '.' || name === 'at' || name === 'batch';
}

/**
 * The program text a shell-like call runs from outside its arguments. `interpreterStdin` is
 * set for interpreters (python, node, …) that read their program from stdin.
 */
export function fedProgram(
  segment: ShellSegment,
  previous: ShellSegment | undefined,
  argv: readonly string[],
  name: string,
  interpreterStdin = false,
): FedProgram {
  const source = interpreterStdin ? 'stdin' : programSource(argv, name);
  const who = programName(argv[0] ?? '');
  if (source === 'inline' || source === 'file') return { texts: [] };
  if (typeof source === 'object') return fromCommand(source.process, who, 'as a script');
  const texts = [...segment.heredocs];
  for (const r of segment.redirects) {
    if (r.op === '<<<') texts.push(r.target);
    if (r.op === '<' && r.target.startsWith('<(')) return fromCommand(r.target.slice(2, -1), who, 'as its program');
    if (r.op === '<' || r.op === '<>') return { texts };
  }
  const piped = previous !== undefined && (previous.next === '|' || previous.next === '|&');
  if (!piped && texts.length === 0 && source === 'stdin-path') {
    return {
      texts,
      refuse: {
        pattern: 'source /dev/stdin',
        why: `${who} reads its program from ${argv.find((a) => STDIN_PATHS.test(a)) ?? 'standard input'}, which the blacklist cannot read; run the commands directly`,
      },
    };
  }
  if (texts.length > 0 || !piped) return { texts };
  const feeder = resolveInvocations(previous.words).calls[0]?.argv;
  const feederName = programName(feeder?.[0] ?? '');
  if (feederName === 'cat' && feeder && operands(feeder.slice(1)).length === 0) {
    return { texts: [...previous.heredocs, ...previous.redirects.filter((r) => r.op === '<<<').map((r) => r.target)] };
  }
  const printed = printedText(feeder);
  if (printed && 'texts' in printed) return { texts: printed.texts };
  const what =
    printed && 'unverifiable' in printed
      ? `runs what ${printed.unverifiable.replace(/ prints /, ' prints: ')}, as its program`
      : `runs what \`${short(previous.text)}\` prints as its program, which the blacklist cannot read`;
  return {
    texts: [],
    refuse: { pattern: interpreterStdin ? `… | ${who}` : '… | sh', why: `${who} ${what}; run the commands directly instead of piping text into ${who}` },
  };
}

/** A process substitution's output as a program: literal echo/printf text, or a refusal. */
function fromCommand(inner: string, who: string, how: string): FedProgram {
  const segments = lexShell(inner);
  const argv = segments.length === 1 ? resolveInvocations(segments[0]!.words).calls[0]?.argv : undefined;
  const printed = printedText(argv);
  if (printed && 'texts' in printed) return { texts: printed.texts };
  return {
    texts: [],
    refuse: {
      pattern: 'sh <(…)',
      why: `${who} runs the output of \`${short(inner)}\` ${how}, which the blacklist cannot read; run the commands directly`,
    },
  };
}

function short(text: string): string {
  const t = text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/^[{(!]\s*/, '');
  return t.length > 50 ? `${t.slice(0, 47)}…` : t;
}
