import path from 'node:path';
import { SYSTEM_DIRECTORIES, isWithin } from '../sandbox/protected-paths.js';
import { normalizeTarget, operands, type WorkingDirectory } from './command-targets.js';
import { programName } from './command-invocations.js';
import { unverifiablePart, type KnownNames } from './word-expansion.js';

/**
 * Where a command line's commands run and what their path arguments point at, as absolute
 * paths: the line starts in the workspace; `cd`/`pushd` move it. Because a `cd` can fail (and
 * `( … )`, pipelines and `&` run in subshells), the checker keeps every directory a later
 * command could be in: a `cd` joined by `&&` replaces the set, any other joint adds to it.
 * `null` stands for a directory the parser cannot know (`cd "$X"`, `cd -`, `popd`).
 */
export type Cwd = string | null;

export interface PathEnv extends KnownNames {
  home: string;
  /** The workspace the command starts in (absolute, normalized). */
  workspace: string;
}

/** At most this many possible working directories are tracked; beyond that, "unknown". */
const MAX_CWDS = 8;
/** A working directory longer than this (thousands of `cd a`) is "unknown", keeping checks linear. */
const MAX_CWD_LENGTH = 4096;

export function normalizeAbsolute(p: string): string {
  return path.posix.normalize(p).replace(/(.)\/$/, '$1');
}

/** What a blacklist check knows while it walks a command line: the paths, and every directory the current segment may run in. */
export interface CheckEnv extends PathEnv {
  cwds: readonly Cwd[];
}

/** A literal path word as an absolute path, or null when the working directory is unknown. */
export function resolvePath(word: string, cwd: Cwd, env: PathEnv): string | null {
  const t = normalizeTarget(word);
  if (t === '~') return normalizeAbsolute(env.home);
  if (t.startsWith('~/')) return normalizeAbsolute(`${env.home}/${t.slice(2)}`);
  if (t.startsWith('/')) return normalizeAbsolute(t);
  if (cwd === null) return null;
  return normalizeAbsolute(`${cwd}/${t}`);
}

/** The directory after `cd ARG` / `pushd ARG` / `popd`, or undefined when argv is none of them. */
export function cwdAfter(argv: readonly string[], cwd: Cwd, env: PathEnv): Cwd | undefined {
  const name = programName(argv[0] ?? '');
  if (name === 'popd') return null;
  if (name !== 'cd' && name !== 'pushd' && name !== 'chdir') return undefined;
  // The line set PWD or CDPATH: where a cd leads is no longer known.
  if (!env.pwdKnown) return null;
  const target = operands(argv.slice(1))[0];
  if (target === undefined) return env.homeKnown ? normalizeAbsolute(env.home) : null;
  if (target === '-' || unverifiablePart(target, env) !== undefined) return null;
  const next = resolvePath(target, cwd, env);
  return next !== null && next.length > MAX_CWD_LENGTH ? null : next;
}

/** The old rules' view of a directory: the workspace, the root, home, a system directory, other. */
export function kindOfCwd(cwd: Cwd, env: PathEnv): WorkingDirectory {
  if (cwd === null || cwd === env.workspace) return 'start';
  if (cwd === '/') return 'root';
  if (cwd === normalizeAbsolute(env.home)) return 'home';
  if (SYSTEM_DIRECTORIES.includes(cwd) || ['/home', '/Users', '/mnt', '/media'].includes(cwd)) return 'system';
  return 'subdirectory';
}

/** Where a path lies relative to the workspace. */
export function placeOf(abs: string, env: PathEnv): 'inside' | 'workspace' | 'outside' {
  if (abs === env.workspace || isWithin(env.workspace, abs)) return 'workspace';
  // `ws/*`, `ws/.*`, `ws/?*`, `ws/[!.]*`: a glob made only of wildcards matches (nearly) everything.
  if (path.posix.dirname(abs) === env.workspace && /^[*?[\]!^.-]+$/.test(path.posix.basename(abs)) && /[*?]/.test(abs)) return 'workspace';
  return isWithin(abs, env.workspace) ? 'inside' : 'outside';
}

/** Possible working directories for the next segment, given how this one was joined to it. */
export class CwdTracker {
  private current: Cwd[];
  private seen: Cwd[];

  constructor(start: Cwd[]) {
    this.current = [...start];
    this.seen = [...start];
  }

  get cwds(): readonly Cwd[] {
    return this.current;
  }

  /** After a segment: `moved` is where a `cd` in it leads (undefined if it was no `cd`). */
  advance(argvFor: (cwd: Cwd) => Cwd | undefined, joint: string): void {
    const after = this.current.map((cwd) => {
      const moved = argvFor(cwd);
      return moved === undefined ? cwd : moved;
    });
    if (joint === '&&') {
      this.current = cap(after);
      this.seen = cap([...this.seen, ...after]);
    } else {
      // The next command runs whether or not the cd (or anything before it) succeeded.
      this.current = cap([...this.seen, ...after]);
      this.seen = this.current;
    }
  }
}

function cap(cwds: Cwd[]): Cwd[] {
  const unique = [...new Set(cwds)];
  return unique.length > MAX_CWDS ? [...unique.slice(0, MAX_CWDS), null] : unique;
}
