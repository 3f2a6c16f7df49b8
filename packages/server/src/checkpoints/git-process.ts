import { spawn } from 'node:child_process';

export interface GitRun {
  /** The shadow repository (`--git-dir`). */
  gitDir: string;
  /** The workspace (`--work-tree`); absent for commands that do not look at files. */
  workTree?: string;
  /** Bytes for stdin. */
  input?: string | Buffer;
  /** Extra environment (e.g. GIT_INDEX_FILE for a scratch index). */
  env?: Record<string, string>;
  /** Exit codes that are answers, not failures (`diff --quiet` and the like). */
  okCodes?: readonly number[];
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
  }
}

/** git's arguments for the shadow repository: `--git-dir` and `--work-tree` always given, hooks off. */
export function gitArgs(args: readonly string[], run: Pick<GitRun, 'gitDir' | 'workTree'>): string[] {
  return [`--git-dir=${run.gitDir}`, ...(run.workTree ? [`--work-tree=${run.workTree}`] : []), '-c', 'core.hooksPath=/dev/null', ...args];
}

/** git's environment: no repository discovery, no system configuration, no prompts, no optional locks. */
export function gitEnv(run: Pick<GitRun, 'gitDir' | 'env'>): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_CONFIG_NOSYSTEM: '1', ...run.env, GIT_DIR: run.gitDir };
}

/**
 * Runs git on the shadow repository only: `--git-dir` and `--work-tree` are always given, the
 * user's repository configuration is never read (no GIT_DIR discovery), hooks are off, and
 * nothing asks on a terminal. Resolves with stdout.
 */
export function git(args: readonly string[], run: GitRun): Promise<Buffer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('git', gitArgs(args, run), {
      cwd: run.workTree ?? run.gitDir,
      env: gitEnv(run),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => reject(new GitError(`git could not start: ${e.message}`, null)));
    child.on('close', (code) => {
      if (process.env.TANDEM_GIT_TRACE) console.error(`git ${args.slice(0, 3).join(' ')}: ${(performance.now() - started).toFixed(0)} ms`);
      if (code === 0 || (code !== null && run.okCodes?.includes(code))) resolve(Buffer.concat(out));
      else reject(new GitError(`git ${args[0]} failed (${code}): ${Buffer.concat(err).toString('utf8').trim().slice(0, 500)}`, code));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(run.input ?? '');
  });
}

/** NUL-separated output as strings (the last empty piece dropped). */
export function nulList(out: Buffer): string[] {
  const text = out.toString('utf8');
  if (text === '') return [];
  const parts = text.split('\0');
  if (parts.at(-1) === '') parts.pop();
  return parts;
}
