import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBody } from '@tandem/shared';
import { BWRAP, bwrapSkipNotice, testSandbox } from '../os-sandbox/sandbox.test-helper.js';
import { processesMatching, uniqueMarker, waitFor } from '../pty/process-probe.test-helper.js';
import { SessionJobs } from './job-manager.js';

/** Background jobs get the same OS sandbox as foreground commands (throwaway tree under /var/tmp). */
let root: string;
let home: string;
let ws: string;
beforeAll(() => {
  root = mkdtempSync(join(existsSync('/var/tmp') ? '/var/tmp' : tmpdir(), 'tandem-job-sandbox-'));
  home = join(root, 'home');
  ws = join(root, 'ws');
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'job canary secret');
  writeFileSync(join(home, 'notes.txt'), 'job canary');
  mkdirSync(ws);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

if (!BWRAP.ok) bwrapSkipNotice('background jobs in bubblewrap');

describe.skipIf(!BWRAP.ok)('background jobs in the OS sandbox', () => {
  it('a job cannot touch HOME or read credentials, writes the workspace, and stop ends everything it started', async () => {
    const events: EventBody[] = [];
    const jobs = new SessionJobs({
      sessionId: 's1',
      logDir: join(root, 'job-logs'),
      emit: (body) => events.push(body),
      killGraceMs: 300,
      sandbox: testSandbox({ home, dataDir: join(root, 'data') }).wrapperFor(() => [ws]),
    });
    const marker = uniqueMarker();
    const { jobId, logPath } = await jobs.start({
      sessionId: 's1',
      cwd: ws,
      env: { HOME: home },
      command: `rm -rf "$HOME"; cat ~/.ssh/id_rsa; echo made > made.txt; echo after-attempts; sleep ${marker} & sleep ${marker}.5`,
    });
    await waitFor(() => processesMatching(`sleep ${marker}`).length >= 2, "the job's sleeps");
    await waitFor(() => readFileSync(logPath, 'utf8').includes('after-attempts'), "the job's output");
    expect(readFileSync(join(home, 'notes.txt'), 'utf8')).toBe('job canary');
    expect(readFileSync(join(home, '.ssh', 'id_rsa'), 'utf8')).toBe('job canary secret');
    expect(readFileSync(logPath, 'utf8')).not.toContain('job canary secret');
    expect(readFileSync(join(ws, 'made.txt'), 'utf8')).toBe('made\n');
    await jobs.stop(jobId, 'test');
    expect(processesMatching(String(marker))).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['job_started', 'job_exited']);
  });
});
