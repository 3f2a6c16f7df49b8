import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { GitError, gitArgs, gitEnv, type GitRun } from './git-process.js';

/**
 * Reads one answer from the front of a git process's output: the answer and how many bytes it
 * took, or undefined while it is not all there yet.
 */
export type AnswerReader = (out: Buffer) => { answer: string; bytes: number } | undefined;

/**
 * An answer of `count` pieces, each ending in `terminator` (a byte), joined by it: a line
 * (`hash-object --stdin-paths`, `mktree --batch`), two lines (`update-ref --stdin`: `start: ok`,
 * `commit: ok`), four NUL-terminated fields (`check-ignore -z -v -n`).
 */
export function piecesAnswer(count: number, terminator: number): AnswerReader {
  return (out) => {
    let at = 0;
    for (let i = 0; i < count; i++) {
      const end = out.indexOf(terminator, at);
      if (end < 0) return undefined;
      at = end + 1;
    }
    return { answer: out.subarray(0, at - 1).toString('utf8'), bytes: at };
  };
}

export const LINE = 10;
export const NUL = 0;

interface Waiter {
  resolve(answer: string): void;
  reject(err: Error): void;
}

/**
 * One git process kept running for many questions (`hash-object --stdin-paths`, `check-ignore
 * --stdin`), asked one line at a time and answered in order: a checkpoint step then costs a
 * write and a read instead of starting git (≈ 15 ms each on a small machine). The process starts
 * at the first question; if it dies, the questions waiting fail and the next one starts it again.
 */
export class GitPipe {
  private child: ChildProcessWithoutNullStreams | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private readonly waiting: Waiter[] = [];

  constructor(
    private readonly args: readonly string[],
    private readonly run: Pick<GitRun, 'gitDir' | 'workTree'>,
    private readonly read: AnswerReader,
  ) {}

  /** Sends `input` (one whole question, terminator included) and resolves with its answer. */
  ask(input: string): Promise<string> {
    const child = this.child ?? this.start();
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      child.stdin.write(input);
    });
  }

  /** Stops the process; questions still waiting fail. */
  close(): void {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    child.stdin.end();
    child.kill();
    this.fail(new GitError(`git ${this.args[0]} was stopped`, null));
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn('git', gitArgs(this.args, this.run), {
      cwd: this.run.workTree ?? this.run.gitDir,
      env: { ...gitEnv(this.run), GIT_FLUSH: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    this.pending = Buffer.alloc(0);
    const errors: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => {
      this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
      for (let got = this.read(this.pending); got; got = this.read(this.pending)) {
        this.pending = this.pending.subarray(got.bytes);
        this.waiting.shift()?.resolve(got.answer);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    child.stdin.on('error', () => undefined);
    const ended = (why: string) => {
      if (this.child !== child) return;
      this.child = undefined;
      this.fail(new GitError(`git ${this.args[0]} ${why}: ${Buffer.concat(errors).toString('utf8').trim().slice(0, 500)}`, null));
    };
    child.on('error', (e) => ended(`could not start (${e.message})`));
    child.on('close', (code) => ended(`ended (${code})`));
    return child;
  }

  private fail(err: Error): void {
    for (const w of this.waiting.splice(0)) w.reject(err);
  }
}
