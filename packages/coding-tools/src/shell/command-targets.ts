import path from 'node:path';
import { SYSTEM_DIRECTORIES, isWithin } from '../sandbox/protected-paths.js';
import { programName } from './command-invocations.js';

/**
 * What a command's arguments point at, for the blacklist: options vs operands, and whether a
 * target spelled `/`, `~`, `$HOME`, `.`, `*`, `/etc` … is the whole of something that matters,
 * taking into account where an earlier `cd` in the same line moved the shell.
 */
export interface TargetContext {
  /** The home directory, to recognize `rm -rf /home/me` as `rm -rf ~`. */
  home: string;
  /**
   * Where an earlier `cd` in the same command line left the shell: `start` is the directory
   * the command starts in (the workspace for run_command); `subdirectory` a named directory
   * below it or elsewhere, so `cd build && rm -rf *` only empties build.
   */
  cwd: WorkingDirectory;
}

export type WorkingDirectory = 'start' | 'subdirectory' | 'root' | 'home' | 'system';

const SYSTEM_ROOTS = [...SYSTEM_DIRECTORIES, '/home', '/Users', '/mnt', '/media'];

/** Operands (non-option words) of a command, honouring `--`. */
export function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let optionsDone = false;
  for (const arg of args) {
    if (!optionsDone && arg === '--') optionsDone = true;
    else if (optionsDone || !arg.startsWith('-') || arg === '-') out.push(arg);
  }
  return out;
}

/** Short-option letters and long options before `--`: `-r -f` / `-rf` / `--recursive`. */
export function flagSet(args: readonly string[]): Set<string> {
  const flags = new Set<string>();
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('--')) flags.add(arg.split('=')[0]!);
    else if (arg.startsWith('-') && arg.length > 1) for (const ch of arg.slice(1)) flags.add(`-${ch}`);
  }
  return flags;
}

/** `$HOME`, `${HOME}`, `"$HOME"/`, `~/` → `~`; `//` → `/`; trailing `/` and `/.` dropped. */
export function normalizeTarget(raw: string): string {
  const t = raw
    .replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, '~')
    .replace(/\$\{PWD\}|\$PWD(?![A-Za-z0-9_])|\$\(\s*pwd\s*\)|`\s*pwd\s*`/g, '.')
    .replace(/\/{2,}/g, '/');
  if (t.startsWith('~') && !t.startsWith('~/') && t !== '~' && /^~[a-z_][a-z0-9_-]*\/?$/i.test(t)) return '~';
  if (t.startsWith('/')) return path.posix.normalize(t).replace(/(.)\/$/, '$1');
  if (t === '~' || t.startsWith('~/')) {
    const rest = path.posix.normalize(`./${t.slice(2)}`).replace(/\/$/, '');
    return rest === '.' ? '~' : rest.startsWith('..') ? '/' : `~/${rest}`;
  }
  return path.posix.normalize(t).replace(/\/$/, '');
}

const WHOLE_TREE_GLOBS = new Set(['*', '.*', '*.*', '.[!.]*', '{*,.*}']);

export type TargetKind = 'root' | 'home' | 'cwd' | 'system' | undefined;

/** Which protected tree a (recursive) target would take out. */
export function classifyTarget(raw: string, home: string, cwd: WorkingDirectory = 'start'): TargetKind {
  const t = normalizeTarget(raw);
  if (t === '/' || t === '/*' || t === '/.*') return 'root';
  if (t === '~' || t === '~/*' || t === '~/.*' || t === '~/..') return 'home';
  if (t.startsWith('/')) {
    const homeNorm = path.posix.normalize(home).replace(/(.)\/$/, '$1');
    if (t === homeNorm || t === `${homeNorm}/*` || t === `${homeNorm}/.*`) return 'home';
    const dir = t.endsWith('/*') ? t.slice(0, -2) : t;
    if (SYSTEM_ROOTS.includes(dir)) return 'system';
    if (SYSTEM_ROOTS.some((root) => isWithin(dir, root)) && dir.split('/').length <= 3 && t.endsWith('/*')) return 'system';
    return undefined;
  }
  // Relative: only `.`/`..` steps, optionally ending in a whole-directory glob.
  const parts = t.split('/');
  const last = parts[parts.length - 1]!;
  const steps = WHOLE_TREE_GLOBS.has(last) ? parts.slice(0, -1) : parts;
  if (!steps.every((p) => p === '.' || p === '..')) return undefined;
  // `..` climbs above wherever we are: always the whole tree of something that matters.
  if (steps.includes('..')) return 'cwd';
  if (cwd === 'start') return 'cwd';
  return cwd === 'subdirectory' ? undefined : cwd;
}

export function isRecursive(flags: Set<string>): boolean {
  return flags.has('-r') || flags.has('-R') || flags.has('--recursive');
}

export function rmTargets(argv: readonly string[], env: TargetContext, kinds: TargetKind[]): boolean {
  const flags = flagSet(argv.slice(1));
  const ops = operands(argv.slice(1));
  if (flags.has('--no-preserve-root') && kinds.includes('root')) return true;
  if (!isRecursive(flags)) return false;
  return ops.some((op) => kinds.includes(classifyTarget(op, env.home, env.cwd)));
}

const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|mapper\/|sr|fd\d|nbd|zram)/;

export function isBlockDevice(target: string): boolean {
  return BLOCK_DEVICE.test(target);
}

export function isSystemPath(raw: string, env: TargetContext): boolean {
  const t = normalizeTarget(raw);
  if (!t.startsWith('/')) return false;
  if (t === '/' || t === '/*') return true;
  return SYSTEM_DIRECTORIES.some((dir) => isWithin(t, dir)) || (t !== env.home && SYSTEM_ROOTS.includes(t));
}
