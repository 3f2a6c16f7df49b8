import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '@tandem/core';
import { PtyCommandRunner } from './pty-runner.js';
import { groupAlive, procStat } from './process-group.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-pty-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function runOptions(command: string, extra: Partial<Parameters<PtyCommandRunner['run']>[0]> = {}) {
  const seen: string[] = [];
  return {
    seen,
    options: {
      command,
      cwd: dir,
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      callId: 'call-1',
      sessionId: 's1',
      onData: (chunk: string) => seen.push(chunk),
      ...extra,
    },
  };
}

/** A clock that moves only when the test says so. */
class SteppedClock implements Clock {
  private time = 0;
  private timers: Array<{ at: number; fire: () => void }> = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('aborted'));
      const timer = { at: this.time + ms, fire: () => resolve() };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(new Error('aborted'));
      });
    });
  }

  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const t of due) t.fire();
  }
}

/** Running, not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

describe('PtyCommandRunner', () => {
  it('runs in the cwd with the non-interactive environment, streams output and keeps a log', async () => {
    const runner = new PtyCommandRunner({ logDir: join(dir, 'logs') });
    const { seen, options } = runOptions('pwd; echo "ci=$CI pager=$PAGER prompt=$GIT_TERMINAL_PROMPT"; exit 3');
    const result = await runner.run(options);
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.output).toContain(dir);
    expect(result.output).toContain('ci=1 pager=cat prompt=0');
    expect(seen.join('')).toBe(result.output);
    expect(result.logPath).toBe(join(dir, 'logs', 'call-1.log'));
    expect(await readFile(result.logPath!, 'utf8')).toBe(result.output);
  });

  it('kills the whole process group on timeout, background children included', async () => {
    const runner = new PtyCommandRunner({ logDir: dir, killGraceMs: 500 });
    const { options } = runOptions('sleep 1000 & echo "child=$!"; echo "leader=$$"; sleep 1000; wait', { timeoutMs: 600 });
    const started = Date.now();
    const result = await runner.run(options);
    expect(result.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
    const child = Number(/child=(\d+)/.exec(result.output)?.[1]);
    const leader = Number(/leader=(\d+)/.exec(result.output)?.[1]);
    expect(child).toBeGreaterThan(0);
    expect(alive(child)).toBe(false);
    expect(alive(leader)).toBe(false);
    expect(groupAlive(leader)).toBe(false);
  });

  it('returns when the command is done even if it left a background child, and ends that child', async () => {
    const runner = new PtyCommandRunner({ logDir: dir, killGraceMs: 300 });
    const { options } = runOptions('sleep 1000 & echo "child=$!"');
    const started = Date.now();
    const result = await runner.run(options);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.exitCode).toBe(0);
    expect(result.timedOut).toBe(false);
    const child = Number(/child=(\d+)/.exec(result.output)?.[1]);
    expect(child).toBeGreaterThan(0);
    expect(alive(child)).toBe(false);
  });

  it('takes its timeout from the injected clock, not from wall time', async () => {
    const clock = new SteppedClock();
    const runner = new PtyCommandRunner({ logDir: dir, clock, killGraceMs: 5_000 });
    const { options } = runOptions('echo "leader=$$"; sleep 1000', { timeoutMs: 3_600_000 });
    const running = runner.run(options);
    // An hour of clock time passes in a few real milliseconds per step.
    const stepper = setInterval(() => clock.advance(60_000), 5);
    try {
      const result = await running;
      expect(result.timedOut).toBe(true);
      const leader = Number(/leader=(\d+)/.exec(result.output)?.[1]);
      expect(groupAlive(leader)).toBe(false);
    } finally {
      clearInterval(stepper);
    }
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const runner = new PtyCommandRunner({ logDir: dir, killGraceMs: 300 });
    const { options } = runOptions("trap '' TERM; echo \"leader=$$\"; while true; do sleep 0.1; done", { timeoutMs: 400 });
    const result = await runner.run(options);
    expect(result.timedOut).toBe(true);
    const leader = Number(/leader=(\d+)/.exec(result.output)?.[1]);
    expect(groupAlive(leader)).toBe(false);
  });

  it('stops the command when the signal aborts, without calling it a timeout', async () => {
    const runner = new PtyCommandRunner({ logDir: dir, killGraceMs: 300 });
    const abort = new AbortController();
    const { options } = runOptions('echo started; sleep 1000', { signal: abort.signal, onData: () => abort.abort() });
    const result = await runner.run(options);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBeNull();
    expect(runner.isRunning('call-1')).toBe(false);
  });

  it('lets a person type into a command waiting on read', async () => {
    const runner = new PtyCommandRunner({ logDir: dir });
    let typed = false;
    const { options } = runOptions('read -p "name? " answer; echo "hello $answer"', {
      onData: (chunk) => {
        if (!typed && chunk.includes('name?')) {
          typed = true;
          expect(runner.write('call-1', 'tandem\r')).toBe(true);
        }
      },
    });
    const result = await runner.run(options);
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('hello tandem');
    expect(runner.write('call-1', 'late')).toBe(false);
  });

  it('killAll ends every running command', async () => {
    const runner = new PtyCommandRunner({ logDir: dir, killGraceMs: 300 });
    const a = runner.run(runOptions('sleep 1000', { callId: 'a' }).options);
    const b = runner.run(runOptions('sleep 1000', { callId: 'b' }).options);
    await new Promise((r) => setTimeout(r, 200));
    expect(runner.isRunning('a') && runner.isRunning('b')).toBe(true);
    await runner.killAll();
    const results = await Promise.all([a, b]);
    expect(results.every((r) => r.exitCode === null || r.exitCode !== 0)).toBe(true);
    expect(runner.isRunning('a') || runner.isRunning('b')).toBe(false);
  });
});
