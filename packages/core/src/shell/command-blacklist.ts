import os from 'node:os';
import { ARGV_RULES, redirectRule, socketWord, type BlacklistCategory, type RuleEnv } from './blacklist-rules.js';
import { workingDirectoryAfter } from './command-targets.js';
import { isShellProgram, programName, resolveInvocations, shellScriptArgument } from './command-invocations.js';
import { looksLikeForkBomb } from './fork-bomb.js';
import { lexShell, type ShellSegment } from './shell-lexer.js';

export type BlacklistVerdict =
  | { blocked: false }
  | { blocked: true; category: BlacklistCategory; pattern: string; segment: string; message: string };

export interface BlacklistOptions {
  /** Home directory for recognizing `rm -rf /home/me`; defaults to $HOME / os.homedir(). */
  home?: string;
}

type CheckEnv = RuleEnv;

/** Nesting deeper than this (bash -c "bash -c \"…\"") is refused rather than followed forever. */
const MAX_DEPTH = 8;

/** Programs that run the text they are given (as an argument, a file or stdin) as shell code. */
const RUNS_SOURCE = new Set(['eval', 'source', '.']);
/** Programs whose output piped into a shell makes a reverse shell. */
const NETWORK_FEEDERS = new Set(['nc', 'ncat', 'netcat', 'telnet', 'socat', 'openssl']);

/**
 * Checks a shell command line against the blacklist (SPEC P3), looking through quoting,
 * absolute program paths, wrapper commands, `sh -c`/`eval` strings, command substitutions,
 * here-documents and here-strings fed to a shell, `echo … | sh`, and `$(echo …)` used as a
 * command. Runs before any permission decision. Never throws: input that is not a string is
 * treated as an empty command.
 *
 * Not covered (documented limits): commands assembled from variables (`a=rm; $a -rf /`),
 * encoded payloads (`echo … | base64 -d | sh`), scripts in files (`bash evil.sh`), downloads
 * run by a shell (`curl … | sh`), and programs that delete through another language
 * (`python -c "shutil.rmtree('/')"`).
 */
export function checkCommandBlacklist(command: string, options: BlacklistOptions = {}): BlacklistVerdict {
  if (typeof command !== 'string' || command.trim() === '') return { blocked: false };
  const home = options.home ?? process.env.HOME ?? os.homedir();
  return checkText(command, { home, cwd: 'start' }, 0);
}

function checkText(text: string, env: CheckEnv, depth: number): BlacklistVerdict {
  if (depth > MAX_DEPTH) {
    return block('destructive', 'nesting', text, `shell nesting deeper than ${MAX_DEPTH} levels cannot be checked, so it is refused; flatten the command`);
  }
  if (looksLikeForkBomb(text)) {
    return block('fork_bomb', ':(){ :|:& };:', text.trim(), 'a function that keeps spawning copies of itself exhausts the machine');
  }
  // `rm${IFS}-rf${IFS}/`: the field separator spelled as a variable is still a space.
  const spaced = text.replace(/\$\{IFS\}|\$IFS(?![A-Za-z0-9_])/g, ' ');
  const segments = lexShell(spaced);
  // A `cd` earlier in the line changes what `rm -rf *` later means.
  const local: CheckEnv = { ...env };
  for (let i = 0; i < segments.length; i++) {
    const verdict = checkSegment(segments[i]!, segments[i - 1], local, depth);
    if (verdict.blocked) return verdict;
    const argv = resolveInvocations(segments[i]!.words).argvs[0];
    const next = argv ? workingDirectoryAfter(argv, local) : undefined;
    if (next) local.cwd = next;
  }
  return { blocked: false };
}

function checkSegment(segment: ShellSegment, previous: ShellSegment | undefined, env: CheckEnv, depth: number): BlacklistVerdict {
  for (const inner of segment.substitutions) {
    const verdict = checkText(inner, env, depth + 1);
    if (verdict.blocked) return verdict;
  }
  for (const redirect of segment.redirects) {
    const rule = redirectRule(redirect.target);
    if (rule) return block(rule.category, rule.pattern, segment.text, rule.why);
  }
  const { argvs, scripts } = resolveInvocations(segment.words);
  for (const argv of argvs) {
    const name = programName(argv[0] ?? '');
    for (const rule of ARGV_RULES) {
      if (rule.matches(argv, name, env)) return block(rule.category, rule.pattern, segment.text, rule.why);
    }
    if (socketWord(argv)) return block('reverse_shell', '/dev/tcp/', segment.text, 'opens a raw network connection from the shell');
    const readsSource = RUNS_SOURCE.has(name) || (isShellProgram(name) && shellScriptArgument(argv.slice(1)) === undefined);
    if (readsSource) {
      if (isShellProgram(name) && previous?.next === '|' && NETWORK_FEEDERS.has(feederName(previous))) {
        return block('reverse_shell', 'nc … | sh', segment.text, 'runs commands that arrive over a network connection');
      }
      scripts.push(...shellInput(segment, previous));
    }
    // `$(echo sudo) ls`: a substitution in command position runs whatever it prints.
    const echoedCommand = echoedSubstitution(argv[0] ?? '');
    if (echoedCommand !== undefined) scripts.push([echoedCommand, ...argv.slice(1)].join(' '));
  }
  for (const script of scripts) {
    const verdict = checkText(script, env, depth + 1);
    if (verdict.blocked) return verdict;
  }
  return { blocked: false };
}

/** Source a shell reads: here-documents, here-strings, `echo '…' | sh`, `cat <<EOF | sh`, `sh <(echo …)`. */
function shellInput(segment: ShellSegment, previous: ShellSegment | undefined): string[] {
  const sources = [...segment.heredocs];
  for (const redirect of segment.redirects) if (redirect.op === '<<<') sources.push(redirect.target);
  for (const inner of segment.substitutions) {
    const echoed = echoedText(inner);
    if (echoed !== undefined) sources.push(echoed);
  }
  if (previous && previous.next === '|') {
    const feeder = resolveInvocations(previous.words).argvs[0];
    const echoed = echoedArgs(feeder);
    if (echoed !== undefined) sources.push(echoed);
    // `cat <<EOF | sh` and `cat <<< "…" | bash`
    if (programName(feeder?.[0] ?? '') === 'cat') {
      sources.push(...previous.heredocs, ...previous.redirects.filter((r) => r.op === '<<<').map((r) => r.target));
    }
  }
  return sources;
}

function feederName(segment: ShellSegment): string {
  return programName(resolveInvocations(segment.words).argvs[0]?.[0] ?? '');
}

/** What `echo …` / `printf …` prints, roughly: its arguments joined (escaped newlines kept). */
function echoedArgs(argv: string[] | undefined): string | undefined {
  const name = programName(argv?.[0] ?? '');
  if (!argv || (name !== 'echo' && name !== 'printf')) return undefined;
  return argv
    .slice(1)
    .filter((w) => !/^-[neE]+$/.test(w))
    .join(' ')
    .replace(/\\n/g, '\n');
}

/** The text an inner command prints when it is a single echo/printf. */
function echoedText(inner: string): string | undefined {
  const segments = lexShell(inner);
  if (segments.length !== 1) return undefined;
  return echoedArgs(resolveInvocations(segments[0]!.words).argvs[0]);
}

/** For a word that is exactly `$(…)` or a backtick substitution, what it echoes. */
function echoedSubstitution(word: string): string | undefined {
  const m = /^\$\(([\s\S]*)\)$/.exec(word) ?? /^`([\s\S]*)`$/.exec(word);
  return m ? echoedText(m[1]!) : undefined;
}

function block(category: BlacklistCategory, pattern: string, segment: string, why: string): BlacklistVerdict {
  const message =
    `Refused by the command blacklist (${category}: ${pattern}) in \`${segment}\`: ${why}. ` +
    'This command cannot be allowed by any permission; nothing was run. Use a narrower, safer command.';
  return { blocked: true, category, pattern, segment, message };
}
