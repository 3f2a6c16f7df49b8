import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandWrapper } from '../os-sandbox/os-sandbox.js';
import { BWRAP, bwrapSkipNotice, testSandbox } from '../os-sandbox/sandbox.test-helper.js';
import { procStat } from './process-group.js';
import { processesMatching, uniqueMarker, waitFor } from './process-probe.test-helper.js';
import { PtyCommandRunner } from './pty-runner.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-exit-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function options(command: string, callId: string, onData: (chunk: string) => void = () => undefined) {
  return { command, cwd: dir, timeoutMs: 30_000, signal: new AbortController().signal, callId, sessionId: 's1', onData };
}

const modes: Array<[string, (() => CommandWrapper | undefined) | undefined]> = [['unconfined', undefined]];
if (BWRAP.ok) modes.push(['in bubblewrap', () => testSandbox({ home: join(dir, 'home'), dataDir: join(dir, 'data') }).wrapperFor(() => [dir])]);
else bwrapSkipNotice('exit status in bubblewrap');

describe.each(modes)('exit status %s', (_mode, makeSandbox) => {
  // `rm` closes its standard streams itself right before it exits: the case that used to end
  // as "killed by signal SIGHUP" when the pty's master was closed under the still-living leader.
  it('an instant command without output reports exit 0, 100 times out of 100', { timeout: 180_000 }, async () => {
    const runner = new PtyCommandRunner({ logDir: join(dir, 'logs'), sandbox: makeSandbox?.() });
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 100; i++) {
      const result = await runner.run(options('rm -rf build', `quick-${i}`));
      const key = `exit ${result.exitCode} signal ${result.signal ?? 'none'} output ${JSON.stringify(result.output)}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(outcomes)).toEqual({ 'exit 0 signal none output ""': 100 });
  });

  it('an instant failing command without output reports its own exit code', async () => {
    const runner = new PtyCommandRunner({ logDir: join(dir, 'logs'), sandbox: makeSandbox?.() });
    for (let i = 0; i < 10; i++) {
      const result = await runner.run(options('mkdir missing-parent/child 2>/dev/null', `fail-${i}`));
      expect([result.exitCode, result.signal ?? null, result.output]).toEqual([1, null, '']);
    }
  });

  it('a command killed from outside still reports the signal', async () => {
    const marker = uniqueMarker();
    const runner = new PtyCommandRunner({ logDir: join(dir, 'logs'), sandbox: makeSandbox?.() });
    const running = runner.run(options(`sleep ${marker}`, 'killed'));
    await waitFor(() => processesMatching(`sleep ${marker}`).length > 0, 'the sleep');
    const pgrp = procStat(processesMatching(`sleep ${marker}`)[0]!)!.pgrp;
    process.kill(-pgrp, 'SIGKILL');
    const result = await running;
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGKILL');
  });
});

describe('exit status of a shell that kills itself', () => {
  it('reports the signal, not an exit code', async () => {
    const runner = new PtyCommandRunner({ logDir: join(dir, 'logs') });
    const result = await runner.run(options('kill -KILL $$', 'self'));
    expect(result.exitCode).toBeNull();
    expect(result.signal).toBe('SIGKILL');
  });
});
