import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJobOutputTool, stopJobTool } from './job-tools.js';
import { runCommandTool } from './run-command.js';
import { makeHarness, type Harness } from './tool-harness.test-helper.js';
import type { JobInfo, JobManager, JobOutput, JobStartOptions, CommandRunner } from '@tandem/core';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('run_command', () => {
  it('runs in the workspace with the non-interactive environment, streams output and reports the exit code', async () => {
    const result = await h.run(
      runCommandTool,
      { command: 'pwd; echo "CI=$CI PAGER=$PAGER GTP=$GIT_TERMINAL_PROMPT EXTRA=$EXTRA"; exit 3' },
      {
        services: { commandEnv: { EXTRA: 'yes' } },
      },
    );
    expect(result.output).toBe(`${h.workspace}\nCI=1 PAGER=cat GTP=0 EXTRA=yes\n[exit code 3]`);
    expect(result.isError).toBe(true);
    expect(h.output.join('')).toContain('CI=1');
    expect(h.runner.calls[0]).toMatchObject({ cwd: h.workspace, timeoutMs: 60_000, sessionId: 's1', callId: 'c1' });
  });

  it('strips ANSI escapes from the model copy but streams the raw bytes', async () => {
    const result = await h.run(runCommandTool, { command: "printf '\\033[31mred\\033[0m plain\\n'" });
    expect(result.output).toBe('red plain\n[exit code 0]');
    expect(result.isError).toBe(false);
    expect(h.output.join('')).toContain('\u001b[31m');
  });

  it('cuts long output to head and tail, stating the size and the log path', async () => {
    const withLog: CommandRunner = { run: async (o) => ({ ...(await h.runner.run(o)), logPath: '/logs/c1.log' }) };
    const result = await h.run(runCommandTool, { command: 'for i in $(seq 1 5000); do echo "line $i of the output"; done' }, { runner: withLog });
    expect(result.output.length).toBeLessThan(17 * 1024 + 300);
    expect(result.output.startsWith('line 1 of the output\n')).toBe(true);
    expect(result.output).toContain('line 5000 of the output\n[exit code 0]');
    expect(result.output).toMatch(/… \[\d+ characters cut of \d+ in all; full output: \/logs\/c1\.log \(read it with read_file\)\] …/);
  });

  it('says why a write failed when the OS sandbox refused it, and only then', async () => {
    const refused = 'touch: cannot touch /etc/x: Read-only file system\n';
    const sandboxed: CommandRunner = { run: async () => ({ exitCode: 1, output: refused, timedOut: false, sandbox: 'bubblewrap' }) };
    const result = await h.run(runCommandTool, { command: 'touch /etc/x' }, { runner: sandboxed });
    expect(result.output).toBe(
      `${refused}[exit code 1]\n[the OS sandbox (bubblewrap) keeps everything outside the workspace and the granted directories read-only; if the command must write there, ask the user to grant that directory]`,
    );
    const unconfined: CommandRunner = { run: async () => ({ exitCode: 1, output: refused, timedOut: false }) };
    expect((await h.run(runCommandTool, { command: 'touch /etc/y' }, { runner: unconfined })).output).toBe(`${refused}[exit code 1]`);
    const fine: CommandRunner = { run: async () => ({ exitCode: 0, output: 'ok\n', timedOut: false, sandbox: 'bubblewrap' }) };
    expect((await h.run(runCommandTool, { command: 'echo ok' }, { runner: fine })).output).toBe('ok\n[exit code 0]');
  });

  it('on timeout returns the output so far and a timeout line', async () => {
    const result = await h.run(runCommandTool, { command: 'echo started; sleep 10; echo never', timeout_seconds: 0.5 });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^started\n\[command timed out after 0\.5 s and was stopped/);
    expect(result.output).not.toContain('never');
  });

  it('asks the loop for a longer per-call limit when timeout_seconds needs one', () => {
    expect(runCommandTool.timeoutMs?.({ command: 'make', timeout_seconds: 300 })).toBe(310_000);
    expect(runCommandTool.timeoutMs?.({ command: 'make' })).toBeUndefined();
    expect(runCommandTool.timeoutMs?.({ command: 'serve', timeout_seconds: 300, background: true })).toBeUndefined();
  });

  it('refuses a timeout over the configured maximum, and uses the configured default', async () => {
    const over = await h.run(runCommandTool, { command: 'true', timeout_seconds: 5 }, { services: { maxCommandTimeoutMs: 2000 } });
    expect(over.output).toMatch(/timeout_seconds 5 is over the maximum of 2 s/);
    await h.run(runCommandTool, { command: 'true' }, { services: { defaultCommandTimeoutMs: 1234 } });
    expect(h.runner.calls.at(-1)!.timeoutMs).toBe(1234);
  });
});

describe('run_command and the blacklist: refused commands never run', () => {
  it.each([
    ['rm -rf .'],
    ['rm -rf *'],
    ["r''m -fr ./*"],
    ['bash -c "rm -rf ."'],
    ['echo ok; rm -r -f *'],
    ['env X=1 nice -n 5 rm --recursive --force .'],
    ['echo $(rm -rf ~)'],
    ['rm -rf ~'],
    ['rm -rf "$HOME"'],
    ['mkfifo pipe'],
    ['chmod 777 canary/file.txt'],
    ['sudo touch pwned'],
  ])('%s', async (command) => {
    await h.write('canary/file.txt', 'alive');
    await fs.chmod(path.join(h.workspace, 'canary/file.txt'), 0o644);
    await fs.writeFile(path.join(h.home, 'home-canary'), 'alive');
    const result = await h.run(runCommandTool, { command }, { services: { commandEnv: { HOME: h.home } } });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^Refused by the command blacklist \((destructive|reverse_shell|permission|privilege_escalation): /);
    expect(result.output).toContain('nothing was run');
    expect(h.runner.calls).toHaveLength(0);
    expect(await h.read('canary/file.txt')).toBe('alive');
    expect((await fs.stat(path.join(h.workspace, 'canary/file.txt'))).mode & 0o777).toBe(0o644);
    expect(await fs.readFile(path.join(h.home, 'home-canary'), 'utf8')).toBe('alive');
    expect((await fs.readdir(h.workspace)).sort()).toEqual(['canary']);
  });

  it('still runs the look-alikes that are harmless', async () => {
    await h.write('build/x.o', '');
    await h.write('notes.txt', 'call sudo later\n');
    const result = await h.run(runCommandTool, { command: 'rm -rf ./build && echo "rm -rf /" && grep sudo notes.txt && chmod 644 notes.txt' });
    expect(result.output).toBe('rm -rf /\ncall sudo later\n[exit code 0]');
    expect(h.runner.calls).toHaveLength(1);
    expect(await fs.readdir(h.workspace)).toEqual(['notes.txt']);
  });
});

/** A small real JobManager: detached bash processes writing to log files. */
class LogFileJobs implements JobManager {
  private readonly jobs = new Map<string, { info: JobInfo; child: ChildProcess; done: Promise<void> }>();
  constructor(private readonly dir: string) {}

  async start(options: JobStartOptions) {
    const jobId = `job-${this.jobs.size + 1}`;
    const logPath = path.join(this.dir, `${jobId}.log`);
    const log = await fs.open(logPath, 'w');
    const child = spawn('bash', ['-c', options.command], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      detached: true,
      stdio: ['ignore', log.fd, log.fd],
    });
    const info: JobInfo = {
      jobId,
      sessionId: options.sessionId,
      command: options.command,
      cwd: options.cwd,
      logPath,
      running: true,
      exitCode: null,
      startedAt: Date.now(),
    };
    const done = new Promise<void>((resolve) =>
      child.on('exit', (code) => {
        info.running = false;
        info.exitCode = code;
        void log.close().then(resolve);
      }),
    );
    this.jobs.set(jobId, { info, child, done });
    return { jobId, logPath };
  }

  async read(jobId: string, options: { offset?: number; maxBytes?: number } = {}): Promise<JobOutput> {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    const content = await fs.readFile(job.info.logPath);
    const offset = options.offset ?? 0;
    const slice = content.subarray(offset, offset + (options.maxBytes ?? 65536));
    return { output: slice.toString('utf8'), running: job.info.running, exitCode: job.info.exitCode, nextOffset: offset + slice.length };
  }

  async stop(jobId: string) {
    const job = this.jobs.get(jobId);
    if (!job) throw new Error(`no job ${jobId}`);
    if (job.info.running) process.kill(-job.child.pid!, 'SIGTERM');
    await job.done;
  }

  list(sessionId: string) {
    return [...this.jobs.values()].map((j) => j.info).filter((i) => i.sessionId === sessionId);
  }

  finished(jobId: string) {
    return this.jobs.get(jobId)!.done;
  }
}

describe('background jobs', () => {
  it('starts a job, returns its id and log at once, and reads its output by offset', async () => {
    const jobs = new LogFileJobs(h.outside);
    const services = { jobs };
    const started = await h.run(runCommandTool, { command: 'echo one; echo two; exit 4', background: true }, { services });
    expect(started.output).toMatch(/^Started in the background as job job-1; output goes to .*job-1\.log/);
    expect(h.runner.calls).toHaveLength(0);
    await jobs.finished('job-1');
    const first = await h.run(readJobOutputTool, { job_id: 'job-1', max_bytes: 4 }, { services });
    expect(first.output).toBe('one\n[job job-1: finished, exit code 4; next offset 4]');
    const rest = await h.run(readJobOutputTool, { job_id: 'job-1', offset: 4 }, { services });
    expect(rest.output).toBe('two\n[job job-1: finished, exit code 4; next offset 8]');
  });

  it('stops a running job', async () => {
    const jobs = new LogFileJobs(h.outside);
    await h.run(runCommandTool, { command: 'echo up; sleep 30', background: true }, { services: { jobs } });
    const stopped = await h.run(stopJobTool, { job_id: 'job-1' }, { services: { jobs } });
    expect(stopped.output).toBe('Stopped job job-1.');
    expect(jobs.list('s1')[0]!.running).toBe(false);
    expect((await h.run(readJobOutputTool, { job_id: 'nope' }, { services: { jobs } })).output).toBe('cannot read job nope: no job nope');
  });

  it('checks the blacklist before starting a job, and says when the host has no job manager', async () => {
    const jobs = new LogFileJobs(h.outside);
    const blocked = await h.run(runCommandTool, { command: 'sudo sleep 1', background: true }, { services: { jobs } });
    expect(blocked.output).toMatch(/^Refused by the command blacklist/);
    expect(jobs.list('s1')).toHaveLength(0);
    const missing = await h.run(runCommandTool, { command: 'sleep 1', background: true });
    expect(missing.output).toMatch(/background commands are not available in this host/);
    expect((await h.run(readJobOutputTool, { job_id: 'x' })).output).toMatch(/no job manager/);
  });
});
