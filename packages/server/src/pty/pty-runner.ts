import { createWriteStream, existsSync, mkdirSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import * as pty from 'node-pty';
import { NONINTERACTIVE_ENV, type CommandRunner, type RunCommandOptions, type RunCommandResult } from '@tandem/core';
import { startTimer, systemClock, type Clock } from '@tandem/ai';

import { BatchedLog } from './batched-log.js';
import { EndMarkFilter } from './end-mark.js';
import { OutputCapture } from './output-capture.js';
import { OutputCoalescer } from './output-coalescer.js';
import { groupAlive, killGroup } from './process-group.js';
import { shellArgs } from './shell-args.js';
import { setUtf8LineEditing } from './utf8-line-editing.js';
import { commandEnvironment, withoutTokens, type CommandEnvPolicy } from '../os-sandbox/command-env.js';
import type { CommandWrapper, WrappedLaunch } from '../os-sandbox/os-sandbox.js';

export interface PtyRunnerOptions {
  /** Where each command's full output is kept, as `<callId>.log`. */
  logDir: string;
  clock?: Clock;
  /** Shell that runs the command string with `-c`; default /bin/bash, else $SHELL, else /bin/sh. */
  shell?: string;
  /** Base environment; default the server's own, less what `envPolicy` withholds. */
  env?: NodeJS.ProcessEnv;
  /** What of the base environment a command never sees (tokens, keys); default: names alone. */
  envPolicy?: CommandEnvPolicy;
  /** Time between SIGTERM and SIGKILL when a command is stopped; default 2 s. */
  killGraceMs?: number;
  /** How often streamed bytes are handed on; default 16 ms. */
  coalesceMs?: number;
  /** The OS sandbox every command runs in (bubblewrap); none runs the shell directly. */
  sandbox?: CommandWrapper;
}

interface Running {
  proc: pty.IPty;
  done: Promise<void>;
  /** Typed input, in order, behind the one-time IUTF8 set-up (see utf8-line-editing.ts). */
  typing?: Promise<void>;
}

/**
 * The server's `CommandRunner`: every command runs in its own pseudo-terminal, in its own
 * process group, inside the OS sandbox when there is one (the sandbox's launcher is then the
 * group's leader; its PID namespace lives inside the group, so killing the group ends it all). Bytes stream out live, a person can type into it (`write`), and a timeout,
 * an abort or `killAll` ends the whole group: nothing is left behind.
 */
export class PtyCommandRunner implements CommandRunner {
  private readonly running = new Map<string, Running>();
  /** Who waits for a call id to start running (input typed before its pty existed). */
  private readonly starting = new Map<string, Array<() => void>>();
  private readonly clock: Clock;
  private readonly shell: string;

  constructor(private readonly options: PtyRunnerOptions) {
    this.clock = options.clock ?? systemClock;
    this.shell = options.shell ?? defaultShell();
  }

  async run(opts: RunCommandOptions): Promise<RunCommandResult> {
    if (this.running.has(opts.callId)) throw new Error(`a command with call id ${opts.callId} is already running`);
    if (opts.signal.aborted) return { exitCode: null, signal: null, output: '', timedOut: false };

    mkdirSync(this.options.logDir, { recursive: true });
    const base = commandEnvironment(this.options.env ?? process.env, this.options.envPolicy);
    const endMark = new EndMarkFilter();
    const launch = { file: this.shell, args: shellArgs(opts.command, endMark.mark), cwd: opts.cwd };
    const wrapped: WrappedLaunch | undefined = await this.options.sandbox?.wrap({ ...launch, command: opts.command, signal: opts.signal });
    try {
      return await this.spawnAndWait(opts, base, endMark, wrapped ?? { ...launch, args: [...launch.args], env: {} });
    } finally {
      await wrapped?.release();
    }
  }

  private async spawnAndWait(
    opts: RunCommandOptions,
    base: ReturnType<typeof commandEnvironment>,
    endMark: EndMarkFilter,
    wrapped: Pick<WrappedLaunch, 'file' | 'args' | 'env'> & { notes?: () => string[] },
  ): Promise<RunCommandResult> {
    const logPath = join(this.options.logDir, `${safeFileName(opts.callId)}.log`);
    const log = createWriteStream(logPath, { flags: 'w', mode: 0o600 });
    log.on('error', () => undefined);
    const env = { ...base.env, ...NONINTERACTIVE_ENV, ...withoutTokens(opts.env ?? {}, this.options.envPolicy), ...wrapped.env };
    const { file, args } = wrapped;
    const proc = pty.spawn(file, args, {
      // node-pty sets TERM from the name; keep the one the environment asks for.
      name: env.TERM || 'dumb',
      cols: 160,
      rows: 48,
      cwd: opts.cwd,
      env,
      // Bytes, not text: the log is written as the bytes came, and only the text for the stream
      // and the result is decoded, once. Decoding everything and encoding it again for the log
      // was most of what the runner cost on top of node-pty (about 80 ms of CPU per 10 MB).
      encoding: null,
    });
    const pgid = proc.pid;
    const captured = new OutputCapture();
    const decoder = new StringDecoder('utf8');
    const coalescer = new OutputCoalescer(opts.onData, this.options.coalesceMs ?? 16);
    // The log gets the same batching: one write per interval instead of one per pty read.
    const logBatch = new BatchedLog(log, this.options.coalesceMs ?? 16);
    let answered = false;
    const show = (text: string) => {
      if (text === '') return;
      captured.push(text);
      coalescer.push(text);
    };
    const take = (bytes: Buffer) => {
      if (bytes.length === 0) return;
      logBatch.write(bytes);
      show(decoder.write(bytes));
    };
    // With `encoding: null` node-pty hands over Buffers; its typings say string whatever the encoding.
    proc.onData((data: string | Buffer) => {
      const { bytes, ended } = endMark.push(typeof data === 'string' ? Buffer.from(data) : data);
      take(bytes);
      // Everything before the mark is read: let the shell exit (see end-mark.ts).
      if (ended && !answered) {
        answered = true;
        answerEndMark(proc);
      }
    });

    const grace = this.options.killGraceMs ?? 2000;
    let timedOut = false;
    let stopping: Promise<void> | undefined;
    // Waiting for a process group to die is real time, whatever clock runs the timeouts: a fake
    // clock that nobody advances would otherwise hang a command whose group outlives its shell.
    const stop = () => (stopping ??= killGroup(pgid, grace));

    const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => proc.onExit(resolve));
    const stopTimer = startTimer(this.clock, opts.timeoutMs, () => {
      timedOut = true;
      void stop();
    });
    const onAbort = () => void stop();
    opts.signal.addEventListener('abort', onAbort, { once: true });

    const done = exited.then(() => undefined);
    this.running.set(opts.callId, { proc, done });
    for (const wake of this.starting.get(opts.callId) ?? []) wake();
    this.starting.delete(opts.callId);
    try {
      const exit = await exited;
      // The shell is gone; anything it left running in its group goes too.
      if (groupAlive(pgid)) await stop();
      else if (stopping) await stopping;
      take(endMark.end());
      show(decoder.end());
      coalescer.flush();
      logBatch.flush();
      await new Promise<void>((resolve) => log.end(resolve));
      const killedBySignal = timedOut || opts.signal.aborted || (exit.signal ?? 0) > 0;
      return {
        exitCode: killedBySignal && exit.exitCode === 0 ? null : exit.exitCode,
        signal: exit.signal ? signalName(exit.signal) : timedOut || opts.signal.aborted ? 'SIGTERM' : null,
        output: captured.text(logPath),
        timedOut,
        logPath,
        ...(this.options.sandbox ? { sandbox: this.options.sandbox.name } : {}),
        ...(base.withheld.length > 0 ? { withheldEnv: { names: base.withheld, never: base.neverPassed } } : {}),
        ...(wrapped.notes && wrapped.notes().length > 0 ? { notes: wrapped.notes() } : {}),
      };
    } finally {
      stopTimer();
      opts.signal.removeEventListener('abort', onAbort);
      this.running.delete(opts.callId);
    }
  }

  /** Types into a running command; false when no command with that id is running. */
  write(callId: string, data: string): boolean {
    const entry = this.running.get(callId);
    if (!entry) return false;
    const pts = (entry.proc as pty.IPty & { ptsName?: string }).ptsName;
    entry.typing = (entry.typing ?? setUtf8LineEditing(pts)).then(() => {
      if (this.running.get(callId) === entry) entry.proc.write(data);
    });
    return true;
  }

  /** Resolves once a command with this call id runs (at once if it does already). */
  whenRunning(callId: string, signal?: AbortSignal): Promise<void> {
    if (this.running.has(callId)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.starting.get(callId) ?? [];
      list.push(resolve);
      this.starting.set(callId, list);
      // A waiter that gave up (the call ended without running) is forgotten.
      signal?.addEventListener('abort', () => {
        const left = (this.starting.get(callId) ?? []).filter((fn) => fn !== resolve);
        if (left.length > 0) this.starting.set(callId, left);
        else this.starting.delete(callId);
      });
    });
  }

  isRunning(callId: string): boolean {
    return this.running.has(callId);
  }

  /** Ends every running command's process group and waits until they have exited. */
  async killAll(): Promise<void> {
    const grace = this.options.killGraceMs ?? 2000;
    await Promise.all(
      [...this.running.values()].map(async ({ proc, done }) => {
        await killGroup(proc.pid, grace);
        await done;
      }),
    );
  }
}

function defaultShell(): string {
  if (existsSync('/bin/bash')) return '/bin/bash';
  return process.env.SHELL || '/bin/sh';
}

function safeFileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'command';
}

const SIGNAL_NAMES: Record<number, string> = { 1: 'SIGHUP', 2: 'SIGINT', 9: 'SIGKILL', 15: 'SIGTERM' };

function signalName(n: number): string {
  return SIGNAL_NAMES[n] ?? `signal ${n}`;
}

/**
 * Writes the end mark's answer (one `\r`) to the terminal now, on this thread. node-pty's
 * `write()` goes through the thread pool; when the shell died in that moment (a cancel, or a
 * thread pool busy with file work) the terminal was closed before the write ran, and node-pty
 * printed "Unhandled pty write error EBADF". While a read is being handed over the terminal is
 * still open; if the shell is gone regardless, nothing waits for the answer.
 */
function answerEndMark(proc: pty.IPty): void {
  try {
    writeSync((proc as pty.IPty & { fd: number }).fd, '\r');
  } catch {
    // The shell has gone (EIO) or the terminal is full of unread typing (EAGAIN): its read ends anyway.
  }
}
