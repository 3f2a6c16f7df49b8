import path from 'node:path';
import { lexShell, type ShellSegment } from '../shell/index.js';
import { hidesCommands, writesFile } from './command-level.js';
import { DEFAULT_READ_ONLY_COMMANDS } from './reading-programs.js';

export { DEFAULT_READ_ONLY_COMMANDS } from './reading-programs.js';

/** Why a command runs without asking, or `null` when it must ask. */
export interface ReadOnlyMatch {
  /** The entries that matched, in order, without repeats (e.g. `ls`, `git status`). */
  commands: string[];
  /** For the transcript: `read-only command: ls, grep`. */
  reason: string;
}

export interface ReadOnlyOptions {
  /** The list (default `DEFAULT_READ_ONLY_COMMANDS`). An empty list turns the feature off. */
  list?: readonly string[];
  /** The session's workspace; paths outside it are never read without asking. */
  workspace?: string;
}

const FIND_ACTIONS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls']);
const GIT_LISTING_FLAGS = new Set(['-a', '-r', '-v', '-vv', '-l', '--list', '--all', '--remotes', '--verbose', '--show-current', '--no-color', '--color']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The read-only match for a whole command, or null. Every segment must be read-only; an empty
 * or unparsable command is never read-only.
 */
export function readOnlyCommand(command: string | readonly ShellSegment[], options: ReadOnlyOptions = {}): ReadOnlyMatch | null {
  const segments = typeof command === 'string' ? lexShell(command).filter((s) => s.text.trim() !== '') : command;
  const list = options.list ?? DEFAULT_READ_ONLY_COMMANDS;
  if (segments.length === 0 || list.length === 0) return null;
  const commands: string[] = [];
  for (const segment of segments) {
    const entry = readOnlySegment(segment, list, options.workspace);
    if (!entry) return null;
    if (!commands.includes(entry)) commands.push(entry);
  }
  return { commands, reason: `read-only command: ${commands.join(', ')}` };
}

/** The list entry a segment matches, or null when the segment could change or reveal more. */
export function readOnlySegment(segment: ShellSegment, list: readonly string[], workspace?: string): string | null {
  const words = segment.words;
  const [cmd = '', sub] = words;
  if (words.length === 0 || hidesCommands(segment) || writesFile(segment) || segment.heredocs.length > 0) return null;
  if (ASSIGNMENT.test(cmd) || cmd.includes('/')) return null;
  if (words.some((w) => w.includes('$') || w.includes('`'))) return null;
  const entry = sub !== undefined && list.includes(`${cmd} ${sub}`) ? `${cmd} ${sub}` : list.includes(cmd) ? cmd : null;
  if (!entry) return null;
  const args = words.slice(entry.split(' ').length);
  const inputs = segment.redirects.filter((r) => !r.op.includes('>')).map((r) => r.target);
  if ([...args, ...inputs].some((w) => reachesOutside(w, workspace))) return null;
  return writesOrRuns(cmd, sub, args) ? null : entry;
}

/** True for the options with which a listed command writes files or runs another program. */
function writesOrRuns(cmd: string, sub: string | undefined, args: string[]): boolean {
  const has = (...flags: string[]) => args.some((a) => flags.some((f) => a === f || (f.startsWith('--') && a.startsWith(`${f}=`))));
  switch (cmd) {
    case 'find':
      return args.some((a) => FIND_ACTIONS.has(a));
    case 'sort':
      return has('-o', '--output', '--compress-program') || args.some((a) => /^-[a-zA-Z]*o/.test(a) && !a.startsWith('--'));
    case 'uniq':
      return args.filter((a) => !a.startsWith('-')).length > 1;
    case 'tree':
      return has('-o');
    case 'file':
      return has('-C', '--compile');
    case 'rg':
      return has('--pre', '--pre-glob');
    case 'date':
      return has('-s', '--set');
    case 'hostname':
      return args.some((a) => !a.startsWith('-'));
    case 'git':
      if (has('--output', '--ext-diff', '--textconv', '-c', '--exec-path')) return true;
      if (sub === 'branch') return !args.every((a) => GIT_LISTING_FLAGS.has(a));
      return false;
    default:
      return false;
  }
}

/** A word (or the value after `=` in `--opt=value`) that names a path outside the workspace. */
function reachesOutside(word: string, workspace: string | undefined): boolean {
  const values = [word];
  const eq = word.indexOf('=');
  if (word.startsWith('-') && eq > 0) values.push(word.slice(eq + 1));
  return values.some((value) => {
    if (value.startsWith('~')) return true;
    const absolute = value.startsWith('/');
    const climbs = value.split('/').includes('..');
    if (!absolute && !climbs) return false;
    if (!workspace) return true;
    const resolved = path.resolve(workspace, value);
    const rel = path.relative(path.resolve(workspace), resolved);
    return rel.startsWith('..') || path.isAbsolute(rel);
  });
}
