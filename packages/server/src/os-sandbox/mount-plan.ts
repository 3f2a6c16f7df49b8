import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { CREDENTIAL_PATHS } from '@tandem/core';

/** One mount of the sandbox's file-system view, applied in order. */
export type MountOp = { kind: 'writable'; path: string } | { kind: 'hide-dir'; path: string } | { kind: 'hide-file'; path: string };

export interface MountPlanInput {
  /** Directories the command may write: the workspace, the granted directories, configured extras. */
  writable: readonly string[];
  /** The home directory whose credential locations are hidden. */
  home: string;
  /** Further locations to hide (Tandem's data directory). */
  hidden: readonly string[];
}

/**
 * Which directories become writable and which locations are covered, in the order bubblewrap
 * must mount them: shallow paths first, so a deeper mount wins (a credential directory inside
 * a writable workspace stays hidden; a workspace under /tmp sits on top of the private /tmp).
 * Paths are resolved through symlinks, because a mount applies to the real location; paths
 * that do not exist are left out (nothing there to write to or to read).
 */
export function planMounts(input: MountPlanInput): MountOp[] {
  const ops = new Map<string, MountOp>();
  const hidden = [...CREDENTIAL_PATHS.map((rel) => path.join(input.home, rel)), ...input.hidden].flatMap(realLocations);
  for (const dir of input.writable) {
    const real = existingDirectory(dir);
    // Nothing inside a hidden location becomes visible again, whoever asks for it.
    if (real && !hidden.some((h) => isWithin(real, h))) ops.set(real, { kind: 'writable', path: real });
  }
  for (const real of hidden) {
    let isDir: boolean;
    try {
      isDir = statSync(real).isDirectory();
    } catch {
      continue;
    }
    ops.set(real, { kind: isDir ? 'hide-dir' : 'hide-file', path: real });
  }
  return [...ops.values()].sort((a, b) => depth(a.path) - depth(b.path) || rank(a) - rank(b));
}

function existingDirectory(dir: string): string | undefined {
  try {
    const real = realpathSync(path.resolve(dir));
    return statSync(real).isDirectory() ? real : undefined;
  } catch {
    return undefined;
  }
}

/** The real location (a symlinked ~/.ssh is hidden where it points, which covers the link too). */
function realLocations(location: string): string[] {
  try {
    return [realpathSync(path.resolve(location))];
  } catch {
    return [];
  }
}

function depth(p: string): number {
  return p === path.sep ? 0 : p.split(path.sep).length - 1;
}

function rank(op: MountOp): number {
  return op.kind === 'writable' ? 0 : 1;
}

function isWithin(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}
