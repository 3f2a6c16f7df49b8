import os from 'node:os';
import { ARGV_RULES, redirectRule, socketWord, type BlacklistCategory } from './blacklist-rules.js';
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

/** Nesting deeper than this (bash -c "bash -c \"…\"") is refused rather than followed forever. */
const MAX_DEPTH = 8;

/**
 * Checks a shell command line against the blacklist (SPEC P3), looking through quoting,
 * absolute program paths, wrapper commands, `sh -c`/`eval` strings, command substitutions,
 * here-documents fed to a shell, and text piped into a shell. Runs before any permission
 * decision. Never throws: input that is not a string is treated as an empty command.
 *
 * Not covered (documented limits): commands assembled from variables (`a=rm; $a -rf /`),
 * encoded payloads (`echo … | base64 -d | sh`), scripts in files (`bash evil.sh`), and programs
 * that delete through another language (`python -c "shutil.rmtree('/')"`).
 */
export function checkCommandBlacklist(command: string, options: BlacklistOptions = {}): BlacklistVerdict {
  if (typeof command !== 'string' || command.trim() === '') return { blocked: false };
  const home = options.home ?? process.env.HOME ?? os.homedir();
  return checkText(command, { home }, 0);
}

function checkText(text: string, env: { home: string }, depth: number): BlacklistVerdict {
  if (depth > MAX_DEPTH) {
    return block('destructive', 'nesting', text, `shell nesting deeper than ${MAX_DEPTH} levels cannot be checked, so it is refused; flatten the command`);
  }
  if (looksLikeForkBomb(text)) {
    return block('fork_bomb', ':(){ :|:& };:', text.trim(), 'a function that keeps spawning copies of itself exhausts the machine');
  }
  const segments = lexShell(text);
  for (let i = 0; i < segments.length; i++) {
    const verdict = checkSegment(segments[i]!, segments[i - 1], env, depth);
    if (verdict.blocked) return verdict;
  }
  return { blocked: false };
}

function checkSegment(segment: ShellSegment, previous: ShellSegment | undefined, env: { home: string }, depth: number): BlacklistVerdict {
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
    if (isShellProgram(name) && shellScriptArgument(argv.slice(1)) === undefined) {
      scripts.push(...shellInput(segment, previous));
    }
  }
  for (const script of scripts) {
    const verdict = checkText(script, env, depth + 1);
    if (verdict.blocked) return verdict;
  }
  return { blocked: false };
}

/** Source a shell reads on stdin: here-documents, here-strings, or `echo '…' | sh`. */
function shellInput(segment: ShellSegment, previous: ShellSegment | undefined): string[] {
  const sources = [...segment.heredocs];
  for (const redirect of segment.redirects) if (redirect.op === '<<<') sources.push(redirect.target);
  if (previous && previous.next === '|') {
    const feeder = resolveInvocations(previous.words).argvs[0];
    const name = programName(feeder?.[0] ?? '');
    if (feeder && (name === 'echo' || name === 'printf')) {
      sources.push(feeder.slice(1).filter((w) => !/^-[neE]+$/.test(w)).join(' ').replace(/\\n/g, '\n'));
    }
  }
  return sources;
}

function block(category: BlacklistCategory, pattern: string, segment: string, why: string): BlacklistVerdict {
  const message =
    `Refused by the command blacklist (${category}: ${pattern}) in \`${segment}\`: ${why}. ` +
    'This command cannot be allowed by any permission; nothing was run. Use a narrower, safer command.';
  return { blocked: true, category, pattern, segment, message };
}
