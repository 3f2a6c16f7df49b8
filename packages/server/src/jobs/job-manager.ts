import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventBody } from '@tandem/shared';
import { systemClock, type Clock } from '@tandem/ai';
import type { JobInfo, JobManager, JobOutput, JobReadOptions, JobStartOptions } from '@tandem/core';
import { killGroup } from '../pty/process-group.js';
import { commandEnvironment, withoutTokens, type CommandEnvPolicy } from '../os-sandbox/command-env.js';
import type { CommandWrapper, WrappedLaunch } from '../os-sandbox/os-sandbox.js';

export interface SessionJobsOptions {
  sessionId: string;
  /** Where each job's output goes, as `<jobId>.log`. */
  logDir: string;
  /** job_started / job_exited for the session's log. */
  emit(body: EventBody): void;
  clock?: Clock;
  shell?: string;
  /** Time between SIGTERM and SIGKILL when a job is stopped; default 2 s. */
  killGraceMs?: number;
  /** The OS sandbox every job runs in (bubblewrap); none runs the shell directly. */
  sandbox?: CommandWrapper;
  /** What of the server's environment a job never sees (tokens, keys); default: names alone. */
  envPolicy?: CommandEnvPolicy;
}

/** Bytes a read returns when the caller does not say. */
export const DEFAULT_JOB_READ_BYTES = 16 * 1024;

interface Job {
  info: JobInfo;
  /** Also the process-group id: the job runs detached, as a group leader. */
  pid: number | undefined;
  exited: Promise<void>;
  stoppedBy?: string;
}

/**
 * Background commands of one session (requirements T1): each runs detached in its own process group,
 * its output going straight to a log file the model can read later. Stopping a job ends its
 * whole group; closing the session stops them all.
 */
export class SessionJobs implements JobManager {
  private readonly jobs = new Map<string, Job>();
  private readonly clock: Clock;

  constructor(private readonly options: SessionJobsOptions) {
    this.clock = options.clock ?? systemClock;
  }

  async start(opts: JobStartOptions): Promise<{ jobId: string; logPath: string }> {
    mkdirSync(this.options.logDir, { recursive: true });
    const jobId = `job-${randomBytes(4).toString('hex')}`;
    const logPath = join(this.options.logDir, `${jobId}.log`);
    const launch = { file: this.options.shell ?? '/bin/bash', args: ['-c', opts.command], cwd: opts.cwd };
    // A job outlives the call: its proxy and placeholders are released when it exits.
    const wrapped: WrappedLaunch | undefined = await this.options.sandbox?.wrap({ ...launch, command: opts.command });
    const base = commandEnvironment(process.env, this.options.envPolicy);
    const fd = openSync(logPath, 'a', 0o600);
    let child;
    try {
      const { file, args } = wrapped ?? launch;
      child = spawn(file, args, {
        cwd: opts.cwd,
        env: { ...base.env, ...withoutTokens(opts.env ?? {}, this.options.envPolicy), ...wrapped?.env },
        detached: true,
        stdio: ['ignore', fd, fd],
      });
    } catch (err) {
      await wrapped?.release();
      throw err;
    } finally {
      closeSync(fd);
    }
    const info: JobInfo = {
      jobId,
      sessionId: this.options.sessionId,
      command: opts.command,
      cwd: opts.cwd,
      logPath,
      running: true,
      exitCode: null,
      startedAt: this.clock.now(),
    };
    const exited = new Promise<void>((resolve) => {
      const finish = (code: number | null) => {
        void wrapped?.release();
        if (!info.running) return resolve();
        info.running = false;
        info.exitCode = code;
        info.endedAt = this.clock.now();
        const job = this.jobs.get(jobId);
        this.options.emit({ type: 'job_exited', jobId, exitCode: code, ...(job?.stoppedBy ? { stoppedBy: job.stoppedBy } : {}) });
        resolve();
      };
      child.once('exit', (code) => finish(code));
      child.once('error', () => finish(null));
    });
    this.jobs.set(jobId, { info, pid: child.pid, exited });
    this.options.emit({ type: 'job_started', jobId, command: opts.command, logPath });
    return { jobId, logPath };
  }

  async read(jobId: string, options: JobReadOptions = {}): Promise<JobOutput> {
    const job = this.require(jobId);
    const offset = Math.max(0, options.offset ?? 0);
    const maxBytes = Math.max(1, options.maxBytes ?? DEFAULT_JOB_READ_BYTES);
    const handle = await open(job.info.logPath, 'r');
    try {
      const buffer = Buffer.alloc(maxBytes);
      const { bytesRead } = await handle.read(buffer, 0, maxBytes, offset);
      return {
        output: buffer.subarray(0, bytesRead).toString('utf8'),
        running: job.info.running,
        exitCode: job.info.exitCode,
        nextOffset: offset + bytesRead,
      };
    } finally {
      await handle.close();
    }
  }

  async stop(jobId: string, by = 'agent'): Promise<void> {
    const job = this.require(jobId);
    if (!job.info.running) return;
    job.stoppedBy = by;
    if (job.pid !== undefined) await killGroup(job.pid, this.options.killGraceMs ?? 2000, this.clock);
    await job.exited;
  }

  list(sessionId: string): JobInfo[] {
    return [...this.jobs.values()].filter((j) => j.info.sessionId === sessionId).map((j) => ({ ...j.info }));
  }

  /** Stops every running job (session close, server shutdown). */
  async stopAll(by = 'server'): Promise<void> {
    await Promise.all([...this.jobs.values()].filter((j) => j.info.running).map((j) => this.stop(j.info.jobId, by)));
  }

  private require(jobId: string): Job {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no background job ${jobId} in this session; jobs:list shows the session's jobs`);
    return job;
  }
}
