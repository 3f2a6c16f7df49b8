import { expandBraces } from './word-expansion.js';
import { WRAPPERS, type WrapperSpec } from './wrapper-commands.js';

/**
 * From the words of one simple command to what actually runs: strips leading assignments and
 * reserved words, unwraps wrapper commands (env, nice, timeout, xargs, nohup, …) down to the
 * real program, and collects command strings handed to a shell (`bash -c`, `eval`, `watch`,
 * `env -S`, `flock -c`, `parallel`, `ssh host CMD`, `tmux … CMD`, `git -c core.pager=CMD`) and
 * argument lists run by `find -exec`, for the checker to recurse into. A command whose
 * arguments come from another command's output (xargs, parallel, find -exec) says so in
 * `fedBy`, because the checker cannot know those arguments.
 */

export interface Feeder {
  kind: 'xargs' | 'parallel' | 'find';
  /** For `find`: the whole find command, whose starting points bound what `{}` can be. */
  findArgv?: readonly string[];
}

export interface Invocation {
  /** Argument vector that will be executed (argv[0] is the program as written). */
  argv: string[];
  fedBy?: Feeder;
}

export interface ScriptText {
  /** Shell source text that will be executed by a shell. */
  text: string;
  fedBy?: Feeder;
}

export interface Invocations {
  calls: Invocation[];
  scripts: ScriptText[];
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash', 'rbash']);
const RESERVED = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', 'exec']);
/** Programs whose every argument may be a command line they run (`tmux new 'cmd'`). */
const RUN_ARGUMENTS = new Set(['tmux', 'screen', 'byobu', 'dtach', 'abduco']);

/** Editors whose `-c '!cmd'` / `+'!cmd'` run a shell command. */
const EDITORS = new Set(['vi', 'vim', 'nvim', 'ex', 'view', 'gvim', 'rvim', 'vimdiff']);

/** `vim -c '!rm -rf ~'`, `vim +'!cmd'`, `vim --cmd ':!cmd'`: the shell commands an editor is told to run. */
function editorShellCommands(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = a === '-c' || a === '--cmd' ? args[++i] : a.startsWith('+') ? a.slice(1) : undefined;
    const m = value === undefined ? null : /^\s*:?\s*(?:silent!?\s*)?(?:\d+,\d+|%)?\s*(?:!|r(?:ead)?\s*!|w(?:rite)?\s*!)([\s\S]*)$/.exec(value);
    if (m) out.push(m[1]!);
  }
  return out;
}

/** `/usr/bin/rm` → `rm`; lower-cased because macOS file systems ignore case. */
export function programName(word: string): string {
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base.toLowerCase();
}

export function isShellProgram(name: string): boolean {
  return SHELLS.has(name);
}

export function resolveInvocations(words: readonly string[], depth = 0, fed?: Feeder): Invocations {
  const result: Invocations = { calls: [], scripts: [] };
  let fedBy = fed;
  const script = (text: string) => result.scripts.push(fedBy ? { text, fedBy } : { text });
  let argv = [...words];
  for (let guard = 0; guard < 32 && argv.length > 0; guard++) {
    while (argv.length > 0 && (isAssignment(argv[0]!) || RESERVED.has(argv[0]!) || argv[0] === 'function')) {
      // `exec` is both reserved here and a wrapper; its options are handled below.
      if (argv[0] === 'exec') {
        argv = skipOptions(argv.slice(1), WRAPPERS.exec!, script);
        continue;
      }
      // `function f { body; }`: the body follows the name.
      argv = argv.slice(argv[0] === 'function' ? 2 : 1);
    }
    if (argv.length === 0) break;
    // `env {rm,-rf,~}`: brace expansion makes the command and its arguments.
    if (/\{[^}]*,/.test(argv[0]!)) {
      const expanded = expandBraces(argv[0]!);
      if (expanded && expanded.length > 1) argv = [...expanded, ...argv.slice(1)];
    }
    const name = programName(argv[0]!);
    if (name === 'eval') {
      script(argv.slice(1).join(' '));
      return result;
    }
    if (name === 'watch') {
      const rest = skipWatchOptions(argv.slice(1));
      if (rest.exec) argv = rest.words;
      else {
        script(rest.words.join(' '));
        return result;
      }
      continue;
    }
    if (name === 'find') {
      result.calls.push(fedBy ? { argv, fedBy } : { argv });
      if (depth < 4) for (const inner of findExecArgvs(argv)) merge(result, resolveInvocations(inner, depth + 1, { kind: 'find', findArgv: argv }));
      return result;
    }
    if (name === 'parallel') {
      const { command, inputs } = parallelParts(argv.slice(1));
      if (command.length > 0) result.scripts.push({ text: command.join(' '), fedBy: { kind: 'parallel' } });
      else inputs.forEach(script);
      return result;
    }
    if (name === 'ssh') {
      const remote = sshCommand(argv.slice(1));
      if (remote) script(remote);
      result.calls.push(fedBy ? { argv, fedBy } : { argv });
      return result;
    }
    if (name === 'coproc') {
      // `coproc NAME { …; }`: the name, then the body.
      argv = argv[2] === '{' ? argv.slice(3) : argv.slice(1);
      continue;
    }
    if (name === 'trap') {
      const handler = argv.slice(1).find((a) => !a.startsWith('-'));
      if (handler !== undefined) script(handler);
      return result;
    }
    if (RUN_ARGUMENTS.has(name)) argv.slice(1).forEach(script);
    if (EDITORS.has(name)) editorShellCommands(argv.slice(1)).forEach(script);
    if (name === 'git') gitConfigCommands(argv.slice(1)).forEach(script);
    const spec = WRAPPERS[name];
    if (spec) {
      const rest = argv.slice(1);
      if (spec.lookupOptions && rest.some((w) => spec.lookupOptions!.includes(w))) return result;
      argv = skipOptions(rest, spec, script);
      if (name === 'env') argv = dropAssignments(argv);
      if (name === 'xargs') fedBy = { kind: 'xargs' };
      continue;
    }
    result.calls.push(fedBy ? { argv, fedBy } : { argv });
    if (SHELLS.has(name)) {
      const text = shellScriptArgument(argv.slice(1));
      if (text !== undefined) script(text);
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

function skipOptions(args: string[], spec: WrapperSpec, script: (text: string) => void): string[] {
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
      if (value !== undefined) script(value);
      i += inlineValue !== undefined ? 1 : 2;
      continue;
    }
    // `-S'rm -rf /'` glued to the flag.
    const glued = spec.scriptOptions?.find((o) => o.length === 2 && arg.startsWith(o) && arg.length > 2);
    if (glued) {
      script(arg.slice(2));
      i++;
      continue;
    }
    if (spec.valueOptions.includes(flag) && inlineValue === undefined) i += 2;
    else if (/^-[A-Za-z0-9]{2,}$/.test(arg)) i += clusterTakesNext(arg, spec) ? 2 : 1;
    else i++;
  }
  const positionals = spec.positionals ?? 0;
  return args.slice(Math.min(args.length, i + positionals));
}

/** `-0a FILE` / `-tn1`: flags bundled together; the first one that takes a value takes the rest, or the next word. */
function clusterTakesNext(arg: string, spec: WrapperSpec): boolean {
  for (let k = 1; k < arg.length; k++) {
    if (spec.valueOptions.includes(`-${arg[k]}`)) return k === arg.length - 1;
  }
  return false;
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
  into.calls.push(...from.calls);
  into.scripts.push(...from.scripts);
}

const PARALLEL_VALUE_OPTIONS = new Set([
  '-j',
  '--jobs',
  '-S',
  '--sshlogin',
  '-a',
  '--arg-file',
  '-d',
  '--delimiter',
  '-E',
  '-I',
  '--colsep',
  '-C',
  '-n',
  '--max-args',
  '-N',
  '-L',
  '--max-lines',
  '--results',
  '--joblog',
  '--tmpdir',
  '--workdir',
  '--wd',
  '--env',
  '--timeout',
  '--delay',
  '--retries',
  '--tagstring',
  '-s',
  '--max-chars',
  '--sshloginfile',
  '--slf',
  '--basefile',
  '--bf',
  '--return',
  '--load',
  '--memfree',
  '--nice',
  '-P',
  '--max-procs',
]);

/** `parallel [options] command … ::: inputs`: the command words and the literal inputs. */
function parallelParts(args: readonly string[]): { command: string[]; inputs: string[] } {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-') && !args[i]!.startsWith(':::')) {
    i += PARALLEL_VALUE_OPTIONS.has(args[i]!) ? 2 : 1;
  }
  const sep = args.findIndex((a, k) => k >= i && /^::::?\+?$/.test(a));
  const command = args.slice(i, sep === -1 ? args.length : sep);
  const inputs = sep === -1 ? [] : args.slice(sep + 1).filter((a) => !/^::::?\+?$/.test(a));
  return { command, inputs };
}

const SSH_VALUE_OPTIONS = new Set('BbcDEeFIiJLlmOopQRSWw'.split('').map((c) => `-${c}`));

/** `ssh [options] host command…`: the remote command line (run by a shell there, maybe here). */
function sshCommand(args: readonly string[]): string | undefined {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += SSH_VALUE_OPTIONS.has(args[i]!) ? 2 : 1;
  const rest = args.slice(i + 1);
  return rest.length > 0 ? rest.join(' ') : undefined;
}

const GIT_COMMAND_KEYS =
  /^(core\.(pager|editor|sshcommand|fsmonitor|askpass)|alias\..+|pager\..+|sequence\.editor|gpg\.(\w+\.)?program|credential\.(.+\.)?helper|diff\..+\.(textconv|command)|filter\..+\.(clean|smudge|process)|merge\..+\.driver|uploadpack\.packobjectshook)$/i;

/** `git -c core.pager=CMD` / `-c alias.x='!CMD'`: configuration values git runs as commands. */
function gitConfigCommands(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '-c') continue;
    const value = args[i + 1] ?? '';
    const eq = value.indexOf('=');
    if (eq > 0 && GIT_COMMAND_KEYS.test(value.slice(0, eq))) out.push(value.slice(eq + 1).replace(/^!/, ''));
    i++;
  }
  return out;
}
