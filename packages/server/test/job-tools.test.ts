import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeReply, FakeRequest } from '@tandem/testkit';
import { processesMatching, uniqueMarker } from '../src/pty/process-probe.test-helper.js';
import { fakeModelBed, startTestServer } from './server-harness.js';

/**
 * requirements T1 end to end through the model's own tools: run_command { background } → read_job_output
 * (the server's job manager reading the log) → stop_job, and no process left afterwards.
 */
const bed = fakeModelBed({ fakePer: 'file' });

/** The text of every tool result the model has been sent so far. */
function toolResults(req: FakeRequest): string[] {
  const messages = (req.body?.messages ?? []) as Array<{ role: string; content?: unknown }>;
  return messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

/** Resolves once the file exists and contains `text` (checked every 20 ms, for 20 s at most). */
async function untilLogHas(path: string, text: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if ((await readFile(path, 'utf8').catch(() => '')).includes(text)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${path} never contained ${text}`);
}

describe('background jobs through the model tools', () => {
  it('starts a job, reads its output so far, stops it, and leaves no process behind', async () => {
    let jobId = '';
    let jobLog: (id: string) => string = () => '';
    // Found by a marker in its command line: inside the OS sandbox, $$ is a PID of the sandbox's
    // own namespace, meaningless out here.
    const marker = uniqueMarker();
    bed.fake.setHandler((req): FakeReply | Promise<FakeReply> => {
      const results = toolResults(req);
      const last = results.at(-1) ?? '';
      if (results.length === 0) {
        return { toolCalls: [{ name: 'run_command', args: { command: `echo first-line; sleep ${marker} & wait`, background: true } }] };
      }
      if (results.length === 1) {
        jobId = /job (\S+);/.exec(last)?.[1] ?? '';
        // Read once the job has printed (a loaded machine starts the sandbox slowly): wait on its log.
        return untilLogHas(jobLog(jobId), 'first-line').then(() => ({ toolCalls: [{ name: 'read_job_output', args: { job_id: jobId } }] }));
      }
      if (!results.some((r) => r.startsWith('Stopped job'))) return { toolCalls: [{ name: 'stop_job', args: { job_id: jobId } }] };
      return { text: 'Done.' };
    });

    bed.server = await startTestServer({ env: bed.env() });
    const alice = await bed.server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    const dataDir = bed.server.dataDir;
    jobLog = (id) => join(dataDir, 'sessions', session.id, 'jobs', `${id}.log`);
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    alice.approveAll(session.id);
    await alice.ok('session:send', { sessionId: session.id, text: 'start it, check it, stop it' });
    const done = await alice.waitFor((e) => e.type === 'turn_done');
    expect(done).toMatchObject({ outcome: 'answered' });

    const results = alice.events.flatMap((e) => (e.type === 'tool_result' ? [e] : []));
    const started = results.find((r) => r.tool === 'run_command');
    expect(started?.output).toContain(`job ${jobId}`);
    const read = results.filter((r) => r.tool === 'read_job_output').at(-1);
    expect(read?.isError).toBe(false);
    expect(read?.output).toContain('first-line');
    const stopped = results.find((r) => r.tool === 'stop_job');
    expect(stopped).toMatchObject({ isError: false });
    await alice.waitFor((e) => e.type === 'job_exited');
    // The job's shell led its own process group: it and its `sleep` child must be gone.
    expect(processesMatching(String(marker))).toEqual([]);
  });
});
