import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { processesMatching, uniqueMarker, waitFor } from '../src/pty/process-probe.test-helper.js';
import { startTestServer, TOKENS, type TestServer } from './server-harness.js';

let fake: FakeModelServer;
let servers: TestServer[] = [];
const dirs: TempDir[] = [];

beforeAll(async () => {
  fake = await startFakeModelServer();
});
afterAll(async () => {
  await fake.close();
  for (const d of dirs) await d.cleanup();
});
afterEach(async () => {
  for (const s of servers) await s.stop();
  servers = [];
});

async function start(dataDir?: string): Promise<TestServer> {
  const server = await startTestServer({
    env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseURL },
    ...(dataDir ? { dataDir } : {}),
  });
  servers.push(server);
  return server;
}

describe('background jobs', () => {
  it('starts a job from run_command background, lists it, and a driver stops its whole group', async () => {
    const server = await start();
    // Found by a marker in its command line: inside the OS sandbox, $$ is a PID of the sandbox's
    // own namespace, meaningless out here.
    const marker = uniqueMarker();
    const alice = await server.connect('alice');
    const viewer = await server.connect('viewer', TOKENS.view);
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    alice.approveAll(session.id);
    await viewer.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: `echo started; sleep ${marker} & wait`, background: true } }] }, { text: 'Started.' });
    await alice.ok('session:send', { sessionId: session.id, text: 'start a server' });
    const started = await alice.waitFor((e) => e.type === 'job_started');
    await alice.waitFor((e) => e.type === 'turn_done');
    const jobId = started.type === 'job_started' ? started.jobId : '';

    const listed = await viewer.ok('jobs:list', { sessionId: session.id });
    expect(listed.jobs).toHaveLength(1);
    expect(listed.jobs[0]).toMatchObject({ jobId, status: 'running' });

    const denied = await viewer.request('job:stop', { sessionId: session.id, jobId });
    expect(denied.ok === false && denied.error.code).toBe('forbidden');
    const unknown = await alice.request('job:stop', { sessionId: session.id, jobId: 'job-nope' });
    expect(unknown.ok === false && unknown.error.code).toBe('not_found');

    await waitFor(() => processesMatching(`sleep ${marker}`).length > 0, "the job's sleep");

    await alice.ok('job:stop', { sessionId: session.id, jobId });
    const exited = await viewer.waitFor((e) => e.type === 'job_exited');
    expect(exited).toMatchObject({ jobId, stoppedBy: 'alice' });
    expect(processesMatching(String(marker))).toEqual([]);
    const after = await alice.ok('jobs:list', { sessionId: session.id });
    expect(after.jobs[0]!.status).not.toBe('running');
  });
});

describe('sandbox:grant', () => {
  it('lets a driver grant a directory (kept across a restart), refuses the data dir and viewers', async () => {
    const outside = await makeTempDir('tandem-outside-');
    dirs.push(outside);
    await writeFile(join(outside.path, 'notes.txt'), 'granted content\n');
    const first = await start();
    const alice = await first.connect('alice');
    const viewer = await first.connect('viewer', TOKENS.view);
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await viewer.ok('session:attach', { sessionId: session.id, role: 'viewer' });

    const byViewer = await viewer.request('sandbox:grant', { sessionId: session.id, path: outside.path });
    expect(byViewer.ok === false && byViewer.error.code).toBe('forbidden');
    const dataDir = await alice.request('sandbox:grant', { sessionId: session.id, path: first.dataDir });
    expect(dataDir.ok === false && dataDir.error.code).toBe('forbidden');
    const granted = await alice.ok('sandbox:grant', { sessionId: session.id, path: outside.path });
    expect(granted.path).toBe(outside.path);
    const event = await viewer.waitFor((e) => e.type === 'sandbox_granted');
    expect(event).toMatchObject({ path: outside.path, by: 'alice' });
    await first.stop();
    servers = [];

    const second = await start(first.dataDir);
    const bob = await second.connect('bob');
    await bob.ok('session:attach', { sessionId: session.id, role: 'driver' });
    fake.enqueue({ toolCalls: [{ name: 'read_file', args: { path: join(outside.path, 'notes.txt') } }] }, { text: 'Read it.' });
    await bob.ok('session:send', { sessionId: session.id, text: 'read the notes' });
    const result = await bob.waitFor((e) => e.type === 'tool_result');
    expect(result.type === 'tool_result' && result.isError).toBe(false);
    expect(result.type === 'tool_result' && result.output).toContain('granted content');
    await bob.waitFor((e) => e.type === 'turn_done');
  });
});

describe('models:list', () => {
  it('lists the visible catalog to any client', async () => {
    const server = await start();
    const viewer = await server.connect('viewer', TOKENS.view);
    const { models } = await viewer.ok('models:list', {});
    expect(models.length).toBeGreaterThan(0);
    expect(models.some((m) => m.id === 'openai/gpt-4.1-mini')).toBe(true);
  });
});
