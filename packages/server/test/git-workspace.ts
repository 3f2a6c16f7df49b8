import { execFileSync } from 'node:child_process';

/** Runs git in `cwd` and returns its stdout (its stderr is kept from the test's output; a failure throws with it). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Makes `ws` a git repository on branch main with a committer of its own (commands the model runs may commit too). */
export function gitInit(ws: string): void {
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'config', 'user.email', 'test@example.com');
  git(ws, 'config', 'user.name', 'Test');
}

/** Commits everything in `ws`. */
export function gitCommitAll(ws: string, message: string): void {
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', message);
}
