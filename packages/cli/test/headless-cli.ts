import { type ChildProcess, spawn } from 'node:child_process';
import { BUILT_MAIN } from './built-cli.js';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Written to stdin, which is then closed; without it stdin is closed at once (an empty pipe). */
  input?: string | Buffer;
}

/**
 * The built `tandem ARGS` as a script runs it: no terminal, stdin a pipe (given `input`, then
 * closed), exactly `env` plus PATH and HOME. `output` resolves when it exits; `waitFor` waits
 * for a piece of its stderr (or stdout) — the state a test needs, never a time.
 */
export class HeadlessCli {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly output: Promise<CliResult>;
  private readonly waiters = new Set<() => void>();

  constructor(args: string[], options: CliOptions) {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env };
    this.child = spawn(process.execPath, [BUILT_MAIN, ...args], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
      this.wake();
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
      this.wake();
    });
    this.child.stdin!.on('error', () => undefined);
    this.child.stdin!.end(options.input ?? '');
    this.output = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        this.wake();
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  /** Resolves once stderr (or stdout) contains `text`; rejects if the process ends first. */
  async waitFor(text: string | RegExp, stream: 'stderr' | 'stdout' = 'stderr'): Promise<void> {
    const seen = () => (typeof text === 'string' ? this[stream].includes(text) : text.test(this[stream]));
    let exited = false;
    void this.output.then(() => {
      exited = true;
    });
    while (!seen()) {
      if (exited || this.child.exitCode !== null)
        throw new Error(`tandem exited before printing ${String(text)}; stderr:\n${this.stderr}\nstdout:\n${this.stdout}`);
      await new Promise<void>((resolve) => this.waiters.add(resolve));
    }
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
    this.waiters.clear();
  }
}

/** Runs the built `tandem ARGS` to its end. */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  return new HeadlessCli(args, options).output;
}
