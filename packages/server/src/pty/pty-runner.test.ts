import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '@tandem/ai';
import type { CommandWrapper } from '../os-sandbox/os-sandbox.js';
import { BWRAP, bwrapSkipNotice, testSandbox } from '../os-sandbox/sandbox.test-helper.js';
import { PtyCommandRunner } from './pty-runner.js';
import { processesMatching, uniqueMarker, waitFor } from './process-probe.test-helper.js';

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

// The same behaviour unconfined and inside bubblewrap (where the command sees its own PID
// namespace, so processes are found by a marker in their command line, not by `$$`).
const modes: Array<[string, (() => CommandWrapper | undefined) | undefined]> = [['unconfined', undefined]];
if (BWRAP.ok) modes.push(['in bubblewrap', () => testSandbox({ home: join(dir, 'home'), dataDir: join(dir, 'data') }).wrapperFor(() => [dir])]);
else bwrapSkipNotice('PtyCommandRunner in bubblewrap');

/** Awaits `running` while `clock` moves `stepMs` every few real milliseconds: a timeout measured in clock time passes at once. */
async function whileTheClockRuns<T>(running: Promise<T>, clock: SteppedClock, stepMs: number): Promise<T> {
  const stepper = setInterval(() => clock.advance(stepMs), 5);
  try {
    return await running;
  } finally {
    clearInterval(stepper);
  }
}

describe.each(modes)('PtyCommandRunner %s', (_mode, makeSandbox) => {
  const runner = (options: { killGraceMs?: number; clock?: Clock; logDir?: string } = {}) =>
    new PtyCommandRunner({ logDir: options.logDir ?? dir, ...options, sandbox: makeSandbox?.() });

  it('runs in the cwd with the non-interactive environment, streams output and keeps a log', async () => {
    const r = runner({ logDir: join(dir, 'logs') });
    const { seen, options } = runOptions('pwd; echo "ci=$CI pager=$PAGER prompt=$GIT_TERMINAL_PROMPT"; exit 3');
    const result = await r.run(options);
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.output).toContain(dir);
    expect(result.output).toContain('ci=1 pager=cat prompt=0');
    expect(seen.join('')).toBe(result.output);
    expect(result.logPath).toBe(join(dir, 'logs', 'call-1.log'));
    expect(await readFile(result.logPath!, 'utf8')).toBe(result.output);
  });

  it("returns all of a fast, chatty command's output, multi-byte text included (node-pty alone lost its end in 1 of 4 runs)", async () => {
    const r = runner({ logDir: join(dir, 'logs') });
    const line = 'ünïcödé — 日本語 — ✓';
    for (let run = 0; run < 5; run++) {
      const { seen, options } = runOptions(`for i in $(seq 1 4000); do printf '%s\\n' '${line}'; done; exit 7`);
      const result = await r.run(options);
      expect(result.exitCode).toBe(7);
      const lines = result.output.split(/\r?\n/).filter((l) => l !== '');
      expect(lines).toHaveLength(4000);
      expect(new Set(lines)).toEqual(new Set([line]));
      expect(seen.join('')).toBe(result.output);
      expect(await readFile(result.logPath!, 'utf8')).toBe(result.output);
    }
  });

  it('kills the whole process group on timeout, background children included', async () => {
    const marker = uniqueMarker();
    const clock = new SteppedClock();
    const r = runner({ clock, killGraceMs: 500 });
    const { options } = runOptions(`sleep ${marker} & sleep ${marker}.5 & echo started; wait`, { timeoutMs: 600 });
    const running = r.run(options);
    // Both sleeps (not just the shell, whose command line holds the marker too) are up.
    await waitFor(() => processesMatching(`sleep ${marker}`).length >= 2, 'the background sleeps');
    const result = await whileTheClockRuns(running, clock, 100);
    expect(result.timedOut).toBe(true);
    expect(processesMatching(String(marker))).toEqual([]);
  });

  it('returns when the command is done even if it left a background child, and ends that child', async () => {
    const marker = uniqueMarker();
    const r = runner({ killGraceMs: 300 });
    const { options } = runOptions(`sleep ${marker} & echo "child started"`);
    const result = await r.run(options);
    expect(result.exitCode).toBe(0);
    expect(result.timedOut).toBe(false);
    expect(result.output).toContain('child started');
    expect(processesMatching(String(marker))).toEqual([]);
  });

  it('takes its timeout from the injected clock, not from wall time', async () => {
    const marker = uniqueMarker();
    const clock = new SteppedClock();
    const r = runner({ clock, killGraceMs: 5_000 });
    const { options } = runOptions(`echo started; sleep ${marker}`, { timeoutMs: 3_600_000 });
    const running = r.run(options);
    // An hour of clock time passes in a few real milliseconds per step.
    const result = await whileTheClockRuns(running, clock, 60_000);
    expect(result.timedOut).toBe(true);
    expect(processesMatching(String(marker))).toEqual([]);
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const marker = uniqueMarker();
    const r = runner({ killGraceMs: 300 });
    const { options } = runOptions(`: ${marker}; trap '' TERM; echo started; while true; do sleep 0.1; done`, { timeoutMs: 400 });
    const result = await r.run(options);
    expect(result.timedOut).toBe(true);
    expect(processesMatching(String(marker))).toEqual([]);
  });

  it('stops the command when the signal aborts, without calling it a timeout', async () => {
    const r = runner({ killGraceMs: 300 });
    const abort = new AbortController();
    const { options } = runOptions('echo started; sleep 1000', { signal: abort.signal, onData: () => abort.abort() });
    const result = await r.run(options);
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBeNull();
    expect(r.isRunning('call-1')).toBe(false);
  });

  /** Runs `command` and types `text` once its output shows `name?`. */
  function runTyping(r: PtyCommandRunner, command: string, text: string) {
    let typed = false;
    const { options } = runOptions(command, {
      onData: (chunk) => {
        if (!typed && chunk.includes('name?')) {
          typed = true;
          expect(r.write('call-1', text)).toBe(true);
        }
      },
    });
    return r.run(options);
  }

  it('lets a person type into a command waiting on read', async () => {
    const r = runner();
    const result = await runTyping(r, 'read -p "name? " answer; echo "hello $answer"', 'tandem\r');
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('hello tandem');
    expect(r.write('call-1', 'late')).toBe(false);
  });

  it('erases a whole multi-byte character when a person types a backspace after it (IUTF8 is set before the first keystrokes)', async () => {
    // Canonical-mode line editing by the kernel: 'ü', DEL, 'x', Enter must read as "x" (1 byte), not "\xc3x".
    const result = await runTyping(runner(), `read -p "name? " answer; printf 'bytes=%s\\n' "$(printf '%s' "$answer" | wc -c)"`, 'ü\u007fx\r');
    expect(result.exitCode).toBe(0);
    expect(result.output).toMatch(/bytes=1\r?\n/);
  });

  it('keeps bytes that are not UTF-8 in the log as they came, and shows them as U+FFFD', async () => {
    const r = runner({ logDir: join(dir, 'logs') });
    const result = await r.run(runOptions("printf 'a\\377b\\n'").options);
    expect(result.output).toBe('a\ufffdb\r\n');
    expect(await readFile(result.logPath!)).toEqual(Buffer.from([0x61, 0xff, 0x62, 0x0d, 0x0a]));
  });

  it('killAll ends every running command', async () => {
    const marker = uniqueMarker();
    const r = runner({ killGraceMs: 300 });
    const a = r.run(runOptions(`sleep ${marker}`, { callId: 'a' }).options);
    const b = r.run(runOptions(`sleep ${marker}.5`, { callId: 'b' }).options);
    await waitFor(() => processesMatching(`sleep ${marker}`).length >= 2, 'both sleeps');
    expect(r.isRunning('a') && r.isRunning('b')).toBe(true);
    await r.killAll();
    const results = await Promise.all([a, b]);
    expect(results.every((result) => result.exitCode === null || result.exitCode !== 0)).toBe(true);
    expect(r.isRunning('a') || r.isRunning('b')).toBe(false);
    expect(processesMatching(String(marker))).toEqual([]);
  });
});
