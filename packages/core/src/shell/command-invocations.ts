/**
 * From the words of one simple command to what actually runs: strips leading assignments and
 * reserved words, unwraps wrapper commands (env, nice, timeout, xargs, nohup, …) down to the
 * real program, and collects command strings handed to a shell (`bash -c`, `eval`, `watch`,
 * `env -S`, `flock -c`) and argument lists run by `find -exec`, for the checker to recurse into.
 */

export interface Invocations {
  /** Argument vectors that will be executed (argv[0] is the program as written). */
  argvs: string[][];
  /** Shell source text that will be executed by a shell. */
  scripts: string[];
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'rbash']);
const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'exec']);

/** Options (per wrapper) that take the next word as their value. */
interface WrapperSpec {
  valueOptions: string[];
  /** Positional words the wrapper takes before the command (timeout's duration, chroot's root). */
  positionals?: number;
  /** An option whose value is itself a command string. */
  scriptOptions?: string[];
  /** When one of these options is present, nothing is executed (`command -v x`). */
  lookupOptions?: string[];
}

const WRAPPERS: Record<string, WrapperSpec> = {
  env: { valueOptions: ['-u', '--unset', '-C', '--chdir', '-P'], scriptOptions: ['-S', '--split-string'] },
  command: { valueOptions: [], lookupOptions: ['-v', '-V'] },
  builtin: { valueOptions: [] },
  exec: { valueOptions: ['-a'] },
  nice: { valueOptions: ['-n', '--adjustment'] },
  nohup: { valueOptions: [] },
  time: { valueOptions: ['-f', '--format', '-o', '--output'] },
  timeout: { valueOptions: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  xargs: {
    valueOptions: ['-a', '--arg-file', '-d', '--delimiter', '-E', '-e', '-I', '-i', '-L', '-l', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var'],
  },
  stdbuf: { valueOptions: ['-i', '--input', '-o', '--output', '-e', '--error'] },
  ionice: { valueOptions: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  setsid: { valueOptions: [] },
  strace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-P', '-S', '-X'] },
  ltrace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-a', '-n', '-A', '-D', '-F', '-x', '-L'] },
  chroot: { valueOptions: ['--userspec', '--groups'], positionals: 1 },
  unshare: { valueOptions: ['--map-user', '--map-group', '-S', '--setuid', '-G', '--setgid', '-w', '--wd', '-R', '--root'] },
  nsenter: { valueOptions: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-w', '--wd', '-r', '--root'] },
  flock: { valueOptions: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionals: 1, scriptOptions: ['-c', '--command'] },
  taskset: { valueOptions: [], positionals: 1 },
  chrt: { valueOptions: [], positionals: 1 },
  caffeinate: { valueOptions: ['-t', '-w'] },
  busybox: { valueOptions: [] },
  firejail: { valueOptions: [] },
  catchsegv: { valueOptions: [] },
  unbuffer: { valueOptions: [] },
  faketime: { valueOptions: [], positionals: 1 },
  proxychains: { valueOptions: ['-f'] },
  proxychains4: { valueOptions: ['-f'] },
  torsocks: { valueOptions: [] },
};

/** `/usr/bin/rm` → `rm`; lower-cased because macOS file systems ignore case. */
export function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base.toLowerCase();
}

export function isShellProgram(name: string): boolean {
  return SHELLS.has(name);
}

export function resolveInvocations(words: readonly string[], depth = 0): Invocations {
  const result: Invocations = { argvs: [], scripts: [] };
  let argv = [...words];
  for (let guard = 0; guard < 32 && argv.length > 0; guard++) {
    while (argv.length > 0 && (isAssignment(argv[0]!) || RESERVED.has(argv[0]!))) {
      // `exec` is both reserved here and a wrapper; its options are handled below.
      if (argv[0] === 'exec') {
        argv = skipOptions(argv.slice(1), WRAPPERS.exec!, result);
        continue;
      }
      argv = argv.slice(1);
    }
    if (argv.length === 0) break;
    const name = programName(argv[0]!);
    if (name === 'eval') {
      result.scripts.push(argv.slice(1).join(' '));
      return result;
    }
    if (name === 'watch') {
      const rest = skipWatchOptions(argv.slice(1));
      if (rest.exec) argv = rest.words;
      else {
        result.scripts.push(rest.words.join(' '));
        return result;
      }
      continue;
    }
    if (name === 'find') {
      result.argvs.push(argv);
      if (depth < 4) for (const inner of findExecArgvs(argv)) merge(result, resolveInvocations(inner, depth + 1));
      return result;
    }
    const spec = WRAPPERS[name];
    if (spec) {
      const rest = argv.slice(1);
      if (spec.lookupOptions && rest.some((w) => spec.lookupOptions!.includes(w))) return result;
      argv = skipOptions(rest, spec, result);
      if (name === 'env') argv = dropAssignments(argv);
      continue;
    }
    result.argvs.push(argv);
    if (SHELLS.has(name)) {
      const script = shellScriptArgument(argv.slice(1));
      if (script !== undefined) result.scripts.push(script);
    }
    return result;
  }
  return result;
}

/** The command string of `sh -c STRING`, `bash -lc STRING`, `bash -e -c STRING`. */
export function shellScriptArgument(args: readonly string[]): string | undefined {
  let wantsScript = false;
  for (const arg of args) {
    if (arg === '--') continue;
    if (/^-[a-zA-Z]+$/.test(arg) || /^\+[a-zA-Z]+$/.test(arg)) {
      if (arg.slice(1).includes('c')) wantsScript = true;
      continue;
    }
    if (arg === '-o' || arg === '+o') continue;
    if (arg.startsWith('--')) continue;
    return wantsScript ? arg : undefined;
  }
  return undefined;
}

/** Option letters of a shell invocation (`bash -il` → "il"), up to the first operand. */
export function shellFlags(args: readonly string[]): string {
  let flags = '';
  for (const arg of args) {
    if (/^-[a-zA-Z]+$/.test(arg)) flags += arg.slice(1);
    else if (arg === '--interactive') flags += 'i';
    else if (!arg.startsWith('-')) break;
  }
  return flags;
}

function skipOptions(args: string[], spec: WrapperSpec, result: Invocations): string[] {
  let i = 0;
  while (i < args.length) {
    const arg = args[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    const [flag, inlineValue] = splitLongOption(arg);
    if (spec.scriptOptions?.includes(flag)) {
      const value = inlineValue ?? args[i + 1];
      if (value !== undefined) result.scripts.push(value);
      i += inlineValue !== undefined ? 1 : 2;
      continue;
    }
    // `-S'rm -rf /'` glued to the flag.
    const glued = spec.scriptOptions?.find((o) => o.length === 2 && arg.startsWith(o) && arg.length > 2);
    if (glued) {
      result.scripts.push(arg.slice(2));
      i++;
      continue;
    }
    if (spec.valueOptions.includes(flag) && inlineValue === undefined) i += 2;
    else i++;
  }
  const positionals = spec.positionals ?? 0;
  return args.slice(Math.min(args.length, i + positionals));
}

function splitLongOption(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  if (arg.startsWith('--') && eq > 0) return [arg.slice(0, eq), arg.slice(eq + 1)];
  return [arg, undefined];
}

function skipWatchOptions(args: string[]): { words: string[]; exec: boolean } {
  const valueOptions = new Set(['-n', '--interval', '-q', '--equexit']);
  let exec = false;
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    const [flag, inline] = splitLongOption(args[i]!);
    if (flag === '-x' || flag === '--exec') exec = true;
    if (flag === '--') {
      i++;
      break;
    }
    i += valueOptions.has(flag) && inline === undefined ? 2 : 1;
  }
  return { words: args.slice(i), exec };
}

function findExecArgvs(argv: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < argv.length; i++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(argv[i]!)) continue;
    const inner: string[] = [];
    let j = i + 1;
    while (j < argv.length && argv[j] !== ';' && argv[j] !== '+') inner.push(argv[j++]!);
    out.push(inner);
    i = j;
  }
  return out;
}

function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.test(word);
}

function dropAssignments(argv: string[]): string[] {
  let i = 0;
  while (i < argv.length && isAssignment(argv[i]!)) i++;
  return argv.slice(i);
}

function merge(into: Invocations, from: Invocations): void {
  into.argvs.push(...from.argvs);
  into.scripts.push(...from.scripts);
}
