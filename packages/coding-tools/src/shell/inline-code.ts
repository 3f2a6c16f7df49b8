import type { Language } from './inline-code-primitives.js';

/**
 * Which interpreters take a program on the command line, and where: `python3 -c CODE`,
 * `perl -e CODE`, `node -e/--eval/-p CODE`, `ruby -e`, `php -r`, `lua -e`, `Rscript -e`,
 * `awk 'PROGRAM'`, `deno eval`, `bun -e`, `pwsh -c`. Also whether the interpreter would read
 * its program from standard input (no inline code, no script file), so text piped into it is
 * checked like text piped into a shell.
 */
export interface InterpreterCall {
  language: Language;
  /** The inline code (all of it, joined), or undefined when the program is a file or stdin. */
  code?: string;
  /** The flag that introduced the code, for the refusal (`-c`, `-e`, `--eval`). */
  flag?: string;
  /** True when the program comes from standard input. */
  readsStdin: boolean;
}

interface Spec {
  language: Language;
  /** Does this argument introduce inline code? Returns the code glued to it, '' if it follows. */
  inline(arg: string): string | undefined;
  /** Options taking a separate value (skipped when looking for a script operand). */
  valueOptions: string[];
  /** Options after which no script file follows (`python -m mod`). */
  moduleOptions?: string[];
  /** Options whose value may be glued on (`-MIO::Socket`, `-rsocket`): never inline code. */
  gluedValue?: string[];
}

const short = (letters: string) => (arg: string) => {
  const m = new RegExp(`^-[A-Za-z]*?[${letters}](.*)$`, 's').exec(arg);
  return m && !arg.startsWith('--') ? m[1]! : undefined;
};
const longOr = (longs: string[], shortLetters: string) => (arg: string) => {
  for (const l of longs) {
    if (arg === l) return '';
    if (arg.startsWith(`${l}=`)) return arg.slice(l.length + 1);
  }
  return short(shortLetters)(arg);
};

const SPECS: Array<[RegExp, Spec]> = [
  [/^(python|pypy)[0-9.]*$/, { language: 'python', inline: short('c'), valueOptions: ['-W', '-X', '-Q'], moduleOptions: ['-m'], gluedValue: ['-W', '-X'] }],
  [
    /^(node|nodejs|bun)$/,
    {
      language: 'node',
      inline: longOr(['--eval', '--print'], 'ep'),
      valueOptions: ['-r', '--require', '--import', '--loader', '--experimental-loader', '--input-type', '-C', '--conditions'],
    },
  ],
  [/^perl[0-9.]*$/, { language: 'perl', inline: short('eE'), valueOptions: ['-I', '-M', '-m', '-x'], gluedValue: ['-I', '-M', '-m', '-x', '-d'] }],
  [/^(ruby|jruby)[0-9.]*$/, { language: 'ruby', inline: short('e'), valueOptions: ['-I', '-r', '-C', '-E'], gluedValue: ['-I', '-r', '-C', '-E'] }],
  [/^php[0-9.]*$/, { language: 'php', inline: short('rRBE'), valueOptions: ['-c', '-d', '-z'], gluedValue: ['-c', '-d', '-z'] }],
  [/^(lua|luajit)[0-9.]*$/, { language: 'lua', inline: short('e'), valueOptions: ['-l'] }],
  [/^(rscript|r)$/, { language: 'r', inline: short('e'), valueOptions: [] }],
  [/^(expect|tclsh[0-9.]*|wish[0-9.]*)$/, { language: 'tcl', inline: short('c'), valueOptions: ['-f', '-b'] }],
  [
    /^(pwsh|powershell)(\.exe)?$/,
    { language: 'powershell', inline: longOr(['-Command', '-command', '-EncodedCommand', '-encodedcommand', '-enc'], 'cC'), valueOptions: ['-File'] },
  ],
];

export function interpreterCall(argv: readonly string[], name: string): InterpreterCall | undefined {
  if (/^(awk|gawk|mawk|nawk|busybox-awk)$/.test(name)) return awkCall(argv);
  if (name === 'deno') {
    if (argv[1] !== 'eval') return undefined;
    return { language: 'node', code: argv.slice(2).join(' '), flag: 'eval', readsStdin: false };
  }
  const spec = SPECS.find(([re]) => re.test(name))?.[1];
  if (!spec) return undefined;
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || (!arg.startsWith('-') && !arg.startsWith('+'))) break;
    if (spec.valueOptions.includes(arg)) {
      i++;
      continue;
    }
    if (spec.gluedValue?.some((o) => arg.startsWith(o) && arg.length > o.length)) continue;
    const glued = spec.inline(arg);
    if (glued !== undefined) {
      // Everything from the flag on: later -e's add code, and options cannot hide it.
      const flag = arg.startsWith('--') ? arg.replace(/=.*$/s, '') : arg.slice(0, arg.length - glued.length);
      return { language: spec.language, code: [glued, ...args.slice(i + 1)].join(' '), flag, readsStdin: false };
    }
  }
  return { language: spec.language, readsStdin: readsProgramFromStdin(args, spec) };
}

function readsProgramFromStdin(args: readonly string[], spec: Spec): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-') return true;
    if (arg === '--') return args[i + 1] === undefined || args[i + 1] === '-';
    if (spec.moduleOptions?.includes(arg) || spec.moduleOptions?.some((m) => arg.startsWith(m) && arg.length > m.length)) return false;
    if (spec.valueOptions.includes(arg)) {
      i++;
      continue;
    }
    if (!arg.startsWith('-')) return false;
  }
  return true;
}

const AWK_VALUE_OPTIONS = new Set(['-F', '-v', '-f', '--file', '--field-separator', '--assign', '-i', '--include', '-l', '--load']);

/** awk's program is its first operand, unless it comes from a file (`-f prog.awk`). */
function awkCall(argv: readonly string[]): InterpreterCall | undefined {
  const args = argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-f' || arg === '--file' || /^-f./.test(arg)) return { language: 'awk', readsStdin: false };
    if (AWK_VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg === '--') return args[i + 1] === undefined ? undefined : { language: 'awk', code: args[i + 1]!, flag: 'program', readsStdin: false };
    if (arg.startsWith('-') && arg !== '-') continue;
    return { language: 'awk', code: arg, flag: 'program', readsStdin: false };
  }
  return undefined;
}
