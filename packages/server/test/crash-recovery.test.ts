import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { startServeProcess } from './serve-process.js';
import { connectClient, startTestServer, TOKENS, type TestServer } from './server-harness.js';

/**
 * A server killed with SIGKILL (no shutdown code runs) while a permission request is pending:
 * the next server on the same data dir must expire the request and close the turn as
 * interrupted — nothing is approved by accident, nothing is lost.
 */
const dirs: TempDir[] = [];
let child: ChildProcess | undefined;
let fake: FakeModelServer | undefined;
let restarted: TestServer | undefined;

afterEach(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await restarted?.stop();
  await fake?.close();
  for (const d of dirs.splice(0)) await d.cleanup();
  child = fake = restarted = undefined;
});

describe('crash with a permission request pending', () => {
  it('expires the request and interrupts the turn when the next server loads the log', async () => {
    fake = await startFakeModelServer();
    const dataDir = await makeTempDir('tandem-crash-data-');
    const workspace = await makeTempDir('tandem-crash-ws-');
    dirs.push(dataDir, workspace);
    const children: ChildProcess[] = [];
    const served = await startServeProcess({
      args: ['--data-dir', dataDir.path],
      env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseURL },
      children,
    });
    child = served.child;
    const url = served.url;

    const alice = await connectClient(url, 'alice', TOKENS.control);
    const { session } = await alice.ok('session:create', { cwd: workspace.path });
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch approved-by-accident' } }] }, { text: 'done' });
    await alice.ok('session:send', { sessionId: session.id, text: 'touch a file' });
    const request = await alice.waitFor((e) => e.type === 'permission_request');
    const requestId = request.type === 'permission_request' ? request.requestId : '';

    // Events are broadcast only once written: the request alice saw is in the log. Kill now, no shutdown path.
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    alice.close();

    restarted = await startTestServer({ dataDir: dataDir.path, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseURL } });
    const bob = await restarted.connect('bob');
    const { events } = await bob.ok('session:attach', { sessionId: session.id, role: 'driver' });
    const resolved = events.find((e) => e.type === 'permission_resolved' && e.requestId === requestId);
    expect(resolved).toMatchObject({ decision: 'deny_once', by: 'system', reason: 'expired' });
    const interrupted = events.find((e) => e.type === 'turn_interrupted');
    expect(interrupted).toBeDefined();
    expect(events.indexOf(resolved!)).toBeLessThan(events.indexOf(interrupted!));
    // The call was never run, and answering the dead request now is refused.
    const { existsSync } = await import('node:fs');
    expect(existsSync(resolve(workspace.path, 'approved-by-accident'))).toBe(false);
    const late = await bob.request('permission:respond', { sessionId: session.id, requestId, decision: 'allow_once' });
    expect(late.ok).toBe(false);
    // The session is usable again.
    const info = await bob.ok('session:list', {});
    expect(info.sessions.find((s) => s.id === session.id)?.status).toBe('idle');
  }, 240_000);
});
