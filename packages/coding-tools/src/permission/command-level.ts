import type { Danger } from '@tandem/shared';
import { lexShell, type ShellSegment } from '../shell/index.js';
import { READING_GIT_SUBCOMMANDS, READING_PROGRAMS } from './reading-programs.js';
import { maxDanger } from './rule.js';

/**
 * How dangerous one command segment is. Commands never count as `safe` (a command always goes
 * through the permission check); a small table of read-only commands counts as `medium`;
 * everything else, and anything that could hide or write more than it shows, is `dangerous`.
 *
 * | medium (reads only) | notes |
 * |---|---|
 * | ls cat head tail wc pwd echo printf grep egrep fgrep rg which whereis type whoami id date uname hostname tree stat file du df sort uniq cut diff cmp basename dirname realpath readlink true false test cd printenv | |
 * | find | unless it has -delete, -exec, -execdir, -ok, -okdir, -fprint, -fprintf, -fls |
 * | git status, log, diff, show, blame, rev-parse, ls-files, describe, shortlog | |
 * | git branch / git remote / git tag | only with no arguments or listing flags |
 *
 * A segment is `dangerous` whatever its command when it assigns variables (`FOO=1 cmd`),
 * substitutes commands (`$(…)`, backticks, `<(…)`), or redirects output to a file (`> f`;
 * `2>&1` and `> /dev/null` are fine).
 */
const FIND_WRITES = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls']);
const GIT_LISTING = new Set(['branch', 'remote', 'tag']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const GIT_LISTING_FLAGS = new Set(['-a', '-r', '-v', '-vv', '-l', '--list', '--all', '--remotes', '--verbose', '--show-current']);

type SegmentInput = ShellSegment | string;

/** A segment as the lexer sees it; a string is lexed on its own (one segment expected). */
function lexed(segment: SegmentInput): ShellSegment | null {
  if (typeof segment !== 'string') return segment;
  const all = lexShell(segment);
  return all.length === 1 ? all[0]! : null;
}

export function segmentLevel(segment: SegmentInput): Danger {
  const seg = lexed(segment);
  if (!seg || seg.words.length === 0 || hidesCommands(seg) || writesFile(seg)) return 'dangerous';
  const words = seg.words;
  const [cmd = '', sub] = words;
  if (ASSIGNMENT.test(cmd)) return 'dangerous';
  if (READING_PROGRAMS.has(cmd)) return 'medium';
  if (cmd === 'find') return words.some((w) => FIND_WRITES.has(w)) ? 'dangerous' : 'medium';
  if (cmd === 'git' && sub !== undefined) {
    if (READING_GIT_SUBCOMMANDS.has(sub)) return 'medium';
    if (GIT_LISTING.has(sub) && words.slice(2).every((w) => GIT_LISTING_FLAGS.has(w))) return 'medium';
  }
  return 'dangerous';
}

/** The most dangerous segment sets the level; an empty command is `dangerous`. */
export function commandLevel(segments: readonly SegmentInput[]): Danger {
  if (segments.length === 0) return 'dangerous';
  return segments.reduce<Danger>((level, s) => maxDanger(level, segmentLevel(s)), 'medium');
}

/** Command or process substitution: text that runs more than its leading words say. */
export function hidesCommands(segment: SegmentInput): boolean {
  const seg = lexed(segment);
  return !seg || seg.substitutions.length > 0;
}

/** Output redirected to a file (anything but another descriptor or /dev/null). */
export function writesFile(segment: SegmentInput): boolean {
  const seg = lexed(segment);
  return !seg || seg.redirects.some((r) => r.op.includes('>') && !isDescriptorCopy(r.op, r.target) && r.target !== '/dev/null');
}

/** `2>&1`, `>&2`, `2>&-`: the target is another descriptor, not a file. */
function isDescriptorCopy(op: string, target: string): boolean {
  return op.endsWith('>&') && /^(\d+-?|-)$/.test(target);
}

/**
 * Leading words a person may choose as a prefix rule for this segment: the command plus a
 * subcommand-like second word (`git status`, `npm run`), then the command alone. None for a
 * segment that starts with a variable assignment or hides commands.
 */
export function leadingWordChoices(segment: SegmentInput): string[] {
  const text = (typeof segment === 'string' ? segment : segment.text).trim();
  if (text === '' || hidesCommands(segment)) return [];
  const [first, second] = text.split(/\s+/);
  if (!first || ASSIGNMENT.test(first) || /['"\\$]/.test(first)) return [];
  const choices: string[] = [];
  if (second && /^[A-Za-z][A-Za-z0-9._:-]*$/.test(second)) choices.push(`${first} ${second}`);
  choices.push(first);
  return choices;
}

/** True when `segment`'s words begin with `prefix`'s words (whole words: `git` never covers `gitx`). */
export function startsWithWords(segment: string, prefix: string): boolean {
  const words = segment.trim().split(/\s+/);
  const want = prefix.trim().split(/\s+/);
  if (want.length === 0 || want[0] === '') return false;
  return want.every((w, i) => words[i] === w);
}
