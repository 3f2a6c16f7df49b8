import { lstatSync, readdirSync, realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { PROTECTED_WORKSPACE_ENTRIES } from '@tandem/coding-tools';

/** One read-only mount over a protected location: the location itself, or an empty placeholder where nothing exists yet. */
export type ProtectedMount = { kind: 'readonly'; path: string } | { kind: 'placeholder'; path: string; dir: boolean };

/**
 * The protected locations of each writable root (ARCHITECTURE "Checkpoints and a guarded
 * workspace"): `.git/hooks`, `.git/config` (and `config.worktree`, and the same two of each
 * submodule under `.git/modules`), `.tandem`, `.mcp.json`, `.claude`, `.agents`. What exists is
 * mounted read-only over itself; what does not exist gets an empty read-only placeholder, so a
 * command can neither change nor create it. Without a `.git` at all, `.git` itself is covered:
 * a command cannot make a repository whose hooks would run later outside the sandbox. A location
 * a driver granted write (`sandbox:grant { write: true }`) is left writable.
 */
export function protectedMounts(roots: readonly string[], writeGrants: readonly string[], placeholders: Placeholders): ProtectedMount[] {
  const out: ProtectedMount[] = [];
  const granted = (p: string) => writeGrants.some((g) => p === g || p.startsWith(g.endsWith(path.sep) ? g : g + path.sep));
  const add = (p: string, dir: boolean) => {
    if (granted(p)) return;
    const info = placeholders.isPlaceholder(p) ? undefined : lstatOrUndefined(p);
    if (!info) {
      out.push({ kind: 'placeholder', path: p, dir });
      return;
    }
    let real: string;
    try {
      real = realpathSync(p);
    } catch {
      return;
    }
    out.push({ kind: 'readonly', path: real });
  };
  for (const root of roots) {
    const git = path.join(root, '.git');
    const gitInfo = placeholders.isPlaceholder(git) ? undefined : lstatOrUndefined(git);
    if (!gitInfo) add(git, true);
    else if (!gitInfo.isDirectory()) add(git, false);
    else {
      add(path.join(git, 'hooks'), true);
      add(path.join(git, 'config'), false);
      const worktreeConfig = path.join(git, 'config.worktree');
      if (lstatOrUndefined(worktreeConfig)) add(worktreeConfig, false);
      for (const name of listDir(path.join(git, 'modules'))) {
        for (const entry of ['hooks', 'config']) {
          const p = path.join(git, 'modules', name, entry);
          if (lstatOrUndefined(p)) add(p, entry === 'hooks');
        }
      }
    }
    for (const entry of PROTECTED_WORKSPACE_ENTRIES) {
      if (entry.startsWith('.git/')) continue;
      add(path.join(root, entry.replace(/\/$/, '')), entry.endsWith('/'));
    }
  }
  return out;
}

/**
 * The placeholders bubblewrap creates for protected locations that do not exist (a mount point
 * must exist), counted per path across the commands running now: the last command to end
 * removes it again if it is still empty, so the workspace is left as it was.
 */
export class Placeholders {
  private readonly counts = new Map<string, number>();

  isPlaceholder(p: string): boolean {
    return this.counts.has(p);
  }

  acquire(paths: readonly string[]): () => void {
    for (const p of paths) this.counts.set(p, (this.counts.get(p) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const p of paths) {
        const left = (this.counts.get(p) ?? 1) - 1;
        if (left > 0) {
          this.counts.set(p, left);
          continue;
        }
        this.counts.delete(p);
        removeIfEmpty(p);
      }
    };
  }
}

function removeIfEmpty(p: string): void {
  try {
    const info = lstatSync(p);
    if (info.isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
    else if (info.isFile() && info.size === 0) unlinkSync(p);
  } catch {
    // gone already, or not ours to remove
  }
}

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
