import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { CREDENTIAL_PATHS } from '@tandem/coding-tools';

/** One mount of the sandbox's file-system view, applied in order. */
export type MountOp =
  | { kind: 'writable'; path: string }
  | { kind: 'hide-dir'; path: string }
  | { kind: 'hide-file'; path: string }
  /** Read-only again inside a hidden location: Tandem's own folders commands use (package shims, packages, bridge sockets). */
  | { kind: 'visible'; path: string };

export interface MountPlanInput {
  /** Directories the command may write: the workspace, the granted directories, configured extras. */
  writable: readonly string[];
  /** The home directory whose credential locations are hidden. */
  home: string;
  /** Further locations to hide (Tandem's data directory). */
  hidden: readonly string[];
  /**
   * Folders inside a hidden location that commands see again, read-only (`<data-dir>/bin`,
   * `<data-dir>/packages`, the bridge's sockets); a writable directory inside one of them may be
   * writable (a package's folder during its dependency install). Never inside a credential location.
   */
  visible?: readonly string[];
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
  const credentials = CREDENTIAL_PATHS.map((rel) => path.join(input.home, rel)).flatMap(realLocations);
  const hidden = [...credentials, ...input.hidden.flatMap(realLocations)];
  const visible = (input.visible ?? [])
    .map(existingDirectory)
    .filter((real): real is string => real !== undefined && !credentials.some((c) => isWithin(real, c) || isWithin(c, real)));
  for (const dir of input.writable) {
    const real = existingDirectory(dir);
    // Nothing inside a hidden location becomes visible again, except what Tandem itself shows (`visible`).
    const shown = real !== undefined && visible.some((v) => isWithin(real, v)) && !credentials.some((c) => isWithin(real, c));
    if (real && (shown || !hidden.some((h) => isWithin(real, h)))) ops.set(real, { kind: 'writable', path: real });
  }
  for (const real of visible) if (hidden.some((h) => isWithin(real, h) && real !== h) && !ops.has(real)) ops.set(real, { kind: 'visible', path: real });
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
  return op.kind === 'writable' ? 0 : op.kind === 'visible' ? 2 : 1;
}

function isWithin(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}
