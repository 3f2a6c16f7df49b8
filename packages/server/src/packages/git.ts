import { execFile } from 'node:child_process';

/**
 * Settings every git call of the package manager carries: only the allow-listed transports
 * (https, ssh, local paths), no hooks, symbolic links never created on disk, no prompt for
 * credentials (a private repository fails with git's message instead of hanging).
 */
const SAFE_CONFIG = [
  'protocol.allow=never',
  'protocol.https.allow=always',
  'protocol.ssh.allow=always',
  'protocol.file.allow=always',
  'core.hooksPath=/dev/null',
  'core.symlinks=false',
  'submodule.recurse=false',
].flatMap((setting) => ['-c', setting]);

export class GitError extends Error {
  override readonly name = 'GitError';
}

/**
 * Runs git with an argument list (no shell, so nothing in a source or a path is parsed by one)
 * and the safe settings above; resolves with stdout, or rejects with git's own message.
 */
export function git(args: readonly string[], options: { cwd?: string; signal?: AbortSignal } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...SAFE_CONFIG, ...args],
      {
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' },
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          reject(new GitError('git is not installed (or not on the PATH); install git and try again'));
          return;
        }
        const message = stderr.trim().split('\n').filter(Boolean).slice(-3).join('; ') || error.message;
        reject(new GitError(`git ${args[0] ?? ''} failed: ${message}`));
      },
    );
  });
}

/** One entry of `git ls-tree -r -z`: mode and path. */
export interface TreeEntry {
  mode: string;
  path: string;
}

/** Every file of a commit's tree, read from git's object store (nothing is checked out to read it). */
export async function treeEntries(repo: string, rev: string): Promise<TreeEntry[]> {
  const out = await git(['ls-tree', '-r', '-z', '--full-tree', rev], { cwd: repo });
  const entries: TreeEntry[] = [];
  for (const record of out.split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const mode = record.slice(0, record.indexOf(' '));
    entries.push({ mode, path: record.slice(tab + 1) });
  }
  return entries;
}

/** Git's mode for a symbolic link. */
export const SYMLINK_MODE = '120000';
