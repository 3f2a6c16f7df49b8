import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { procStat } from './process-group.js';
import { PtyCommandRunner } from './pty-runner.js';
import { waitFor } from './process-probe.test-helper.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-pty-answer-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

it("answers the end mark on the runner's own thread: a shell killed while it waits for the answer is never written to after its terminal closed", async () => {
  // Every thread of the pool waits on a FIFO nobody has opened for writing yet, so whatever is
  // queued on the pool waits too (node-pty's own write() would).
  const fifo = join(dir, 'pool-blocker');
  execFileSync('mkfifo', [fifo]);
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const blockers = Array.from({ length: threads }, () => open(fifo, 'r'));
  const release = () => closeSync(openSync(fifo, 'w'));
  const errors = vi.spyOn(console, 'error');
  try {
    const runner = new PtyCommandRunner({ logDir: join(dir, 'logs') });
    // The command ends at once; a child it leaves kills the shell 3 s later, by when an answer that
    // waited on the pool would still not have been written.
    const running = runner.run({
      command: 'echo $$ > shell.pid; (sleep 3; kill -KILL $$) & exit 0',
      cwd: dir,
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      callId: 'answer-1',
      sessionId: 's1',
      onData: () => undefined,
    });
    let pid = 0;
    await waitFor(() => {
      try {
        pid = Number(readFileSync(join(dir, 'shell.pid'), 'utf8'));
      } catch {
        return false;
      }
      const stat = pid > 0 ? procStat(pid) : { state: '?' };
      return !stat || stat.state === 'Z';
    }, 'the shell to end');
    release();
    const result = await running;
    expect(result).toMatchObject({ exitCode: 0, signal: null, timedOut: false });
    expect(errors.mock.calls.flat().join(' ')).not.toContain('pty write error');
  } finally {
    release();
    for (const blocker of blockers) await (await blocker).close();
  }
}, 30_000);
