import os from 'node:os';
import path from 'node:path';
import { redirectRule, type BlacklistCategory } from './blacklist-rules.js';
import { resolveInvocations, type Feeder } from './command-invocations.js';
import { looksLikeForkBomb } from './fork-bomb.js';
import { checkCall } from './call-checks.js';
import { lexShell, type ShellSegment } from './shell-lexer.js';
import { CwdTracker, cwdAfter, normalizeAbsolute, type CheckEnv, type Cwd, type PathEnv } from './workspace-paths.js';
import { expandBraces } from './word-expansion.js';

export type BlacklistVerdict = { blocked: false } | { blocked: true; category: BlacklistCategory; pattern: string; segment: string; message: string };

export interface BlacklistOptions {
  /** Home directory for recognizing `rm -rf /home/me`; defaults to $HOME / os.homedir(). */
  home?: string;
  /**
   * The workspace the command runs in (its starting directory). Recursive deletes must stay
   * inside it. Defaults to the process's working directory.
   */
  workspace?: string;
}

/** Nesting deeper than this (bash -c "bash -c \"…\"") is refused rather than followed forever. */
const MAX_DEPTH = 8;

/**
 * Checks a shell command line against the blacklist (requirements P3), looking through quoting,
 * absolute program paths, wrapper commands, `sh -c`/`eval` strings, command substitutions,
 * here-documents and here-strings fed to a shell, `echo … | sh`, brace expansion, aliases and
 * `cd`. What it cannot resolve to literal text it refuses when it matters: a destructive verb
 * fed by xargs, parallel or find -exec, or given a variable, substitution or expansion; a
 * recursive delete of the workspace or outside it; a command name from a variable; text piped or
 * substituted into a shell; inline interpreter code that deletes, spawns, connects or evals.
 * Runs before any permission decision. Never throws: input that is not a string is treated as an
 * empty command.
 *
 * Still not covered (documented limits, for the OS sandbox): what script files do (`bash x.sh`,
 * `make`, `npm run`), and programs that delete or connect on their own.
 */
export function checkCommandBlacklist(command: string, options: BlacklistOptions = {}): BlacklistVerdict {
  if (typeof command !== 'string' || command.trim() === '') return { blocked: false };
  const home = options.home ?? process.env.HOME ?? os.homedir();
  const workspace = normalizeAbsolute(path.resolve(options.workspace ?? process.cwd()));
  const env: CheckEnv = { home, workspace, homeKnown: true, pwdKnown: true, cwds: [workspace] };
  return checkText(command, env, 0, undefined);
}

/** A word that sets or names HOME / PWD / CDPATH (`HOME=/`, `read HOME`, `for PWD in`): then `~` or `cd` cannot be trusted. */
const SETS_HOME = /^HOME(\[[^\]]*\])?(\+?=|$)/;
const SETS_PWD = /^(PWD|OLDPWD|CDPATH)(\[[^\]]*\])?(\+?=|$)/;

function namesKnown(segments: readonly ShellSegment[], env: CheckEnv): CheckEnv {
  let homeKnown = env.homeKnown;
  let pwdKnown = env.pwdKnown;
  for (const segment of segments) {
    for (const word of segment.words) {
      if (SETS_HOME.test(word)) homeKnown = false;
      if (SETS_PWD.test(word)) pwdKnown = false;
    }
  }
  return homeKnown === env.homeKnown && pwdKnown === env.pwdKnown ? env : { ...env, homeKnown, pwdKnown };
}

export function checkText(text: string, outer: CheckEnv, depth: number, fedBy: Feeder | undefined): BlacklistVerdict {
  if (depth > MAX_DEPTH) {
    return block('unverifiable', 'nesting', text, `shell nesting deeper than ${MAX_DEPTH} levels cannot be checked, so it is refused; flatten the command`);
  }
  if (looksLikeForkBomb(text)) {
    return block('fork_bomb', ':(){ :|:& };:', text.trim(), 'a function that keeps spawning copies of itself exhausts the machine');
  }
  // `rm${IFS}-rf${IFS}/`: the field separator spelled as a variable is still a space.
  const spaced = text.replace(/\$\{IFS\}|\$IFS(?![A-Za-z0-9_])/g, ' ');
  const segments = lexShell(spaced);
  const env = namesKnown(segments, outer);
  const tracker = new CwdTracker([...env.cwds]);
  const aliases = new Map<string, string>();
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const local: CheckEnv = { ...env, cwds: tracker.cwds };
    const verdict = checkSegment(segment, segments[i - 1], local, depth, fedBy, aliases);
    if (verdict.blocked) return verdict;
    const argv = resolveInvocations(commandWords(segment.words) ?? segment.words).calls[0]?.argv;
    tracker.advance((cwd) => (argv ? cwdAfter(argv, cwd, env) : undefined), segment.next);
  }
  return { blocked: false };
}

function checkSegment(
  segment: ShellSegment,
  previous: ShellSegment | undefined,
  env: CheckEnv,
  depth: number,
  fedBy: Feeder | undefined,
  aliases: Map<string, string>,
): BlacklistVerdict {
  for (const inner of segment.substitutions) {
    const verdict = checkText(inner, env, depth + 1, undefined);
    if (verdict.blocked) return verdict;
  }
  for (const redirect of segment.redirects) {
    const rule = redirectRule(redirect.target);
    if (rule) return block(rule.category, rule.pattern, segment.text, rule.why);
  }
  const words = commandWords(segment.words);
  if (words === undefined) {
    return block('unverifiable', 'brace expansion', segment.text, 'the command name comes from a brace expansion too large to check; write the command out');
  }
  const { calls, scripts } = resolveInvocations(words, 0, fedBy);
  for (const call of calls) {
    const result = checkCall(call, segment, previous, env, aliases);
    if (result.finding) return block(result.finding.category, result.finding.pattern, segment.text, result.finding.why);
    scripts.push(...result.scripts);
  }
  for (const script of scripts) {
    const verdict = checkText(script.text, env, depth + 1, script.fedBy);
    if (verdict.blocked) return verdict;
  }
  return { blocked: false };
}

/** `{rm,-rf,~}` as the command: bash expands it to `rm -rf ~`. undefined when too large to check. */
function commandWords(words: readonly string[]): string[] | undefined {
  const first = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  if (first === -1 || !/\{[^}]*,/.test(words[first]!)) return [...words];
  const expanded = expandBraces(words[first]!);
  return expanded ? [...words.slice(0, first), ...expanded, ...words.slice(first + 1)] : undefined;
}

function block(category: BlacklistCategory, pattern: string, segment: string, why: string): BlacklistVerdict {
  const advice = why.includes(';') ? '' : ' Use a narrower, safer command.';
  const message = `Refused by the command blacklist (${category}: ${pattern}) in \`${segment}\`: ${why}. This command cannot be allowed by any permission; nothing was run.${advice}`;
  return { blocked: true, category, pattern, segment, message };
}
