import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { startFakeModelServer, type FakeModelServer } from '@tandem/testkit';
import { startTestServer, TOKENS, type TestClient, type TestServer } from '../../test/server-harness.js';
import { AUDIT_FILE } from '../audit/audit-log.js';
import { openGuardsHost, type GuardsHost, type GuardsHostOptions } from './guards-host.js';

/**
 * The guards plugged into the real server through its seams: real socket.io clients, core's
 * loop and tools, the openai SDK against the fake model server, commands in real ptys.
 */
let fake: FakeModelServer;
let server: TestServer | undefined;
let host: GuardsHost | undefined;

beforeEach(async () => {
  fake = await startFakeModelServer(); // one per test: no reply left over from another test
});
afterEach(async () => {
  await server?.stop();
  await host?.close();
  await fake.close();
  server = undefined;
  host = undefined;
});

async function start(options: Partial<GuardsHostOptions> = {}) {
  const { makeTempDir } = await import('@tandem/testkit');
  const dataDir = (await makeTempDir('tandem-guards-data-')).path;
  host = await openGuardsHost({ dataDir, ...options });
  server = await startTestServer({
    dataDir,
    env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseURL },
    defaultModel: 'openai/fake-model',
    gate: host.gateFactory,
    hooks: host.hooks,
    handlers: host.handlers,
    commandLimiter: host.commandLimiterFactory,
  });
  const alice = await server.connect('alice');
  const { session } = await alice.ok('session:create', { title: 'guards' });
  await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { alice, sessionId: session.id, dataDir, host, server };
}

async function attach(name: string, sessionId: string, role: 'driver' | 'viewer' = 'driver'): Promise<TestClient> {
  const client = await server!.connect(name, role === 'driver' ? TOKENS.control : TOKENS.view);
  await client.ok('session:attach', { sessionId, role });
  return client;
}

const request = (e: SessionEvent) => e.type === 'permission_request';
const turnDone = (e: SessionEvent) => e.type === 'turn_done';

describe('guards in the real server', () => {
  it('asks every client; of two drivers answering at once one wins, the other gets conflict; a viewer may not answer', async () => {
    const { alice, sessionId } = await start();
    const carol = await attach('carol', sessionId);
    const bob = await attach('bob', sessionId, 'viewer');
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'printf guarded' } }] }, { chunks: ['ok'] });
    await alice.ok('session:send', { sessionId, text: 'run it' });

    const asked = await alice.waitFor(request);
    await carol.waitFor(request);
    await bob.waitFor(request);
    if (asked.type !== 'permission_request') throw new Error('unreachable');
    expect(asked).toMatchObject({ tool: 'run_command', preview: 'printf guarded', scopes: ['printf guarded', 'printf guarded *', 'printf *'] });
    expect((await alice.ok('session:list', {})).sessions[0]?.status).toBe('waiting_permission');

    const viewer = await bob.request('permission:respond', { sessionId, requestId: asked.requestId, decision: 'allow_once' });
    expect(viewer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const replies = await Promise.all([
      alice.request('permission:respond', { sessionId, requestId: asked.requestId, decision: 'allow_once' }),
      carol.request('permission:respond', { sessionId, requestId: asked.requestId, decision: 'deny_once' }),
    ]);
    const winners = replies.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(replies.find((r) => !r.ok)).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const winner = replies[0]!.ok ? { name: 'alice', decision: 'allow_once' } : { name: 'carol', decision: 'deny_once' };

    for (const client of [alice, carol, bob]) {
      expect(await client.waitFor((e) => e.type === 'permission_resolved')).toMatchObject({
        requestId: asked.requestId,
        by: winner.name,
        decision: winner.decision,
        reason: 'answered',
      });
      await client.waitFor(turnDone);
    }
    const unknown = await alice.request('permission:respond', { sessionId, requestId: 'no-such-request', decision: 'allow_once' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const { records } = await alice.ok('audit:query', { sessionId });
    expect(records).toEqual([
      expect.objectContaining({ tool: 'run_command', decision: winner.decision, decidedBy: winner.name, isError: winner.decision === 'deny_once' }),
    ]);
  });

  it('a driver attaching while a request is open sees it in the replay and answers it', async () => {
    const { alice, sessionId } = await start();
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'printf late' } }] }, { chunks: ['done'] });
    await alice.ok('session:send', { sessionId, text: 'go' });
    await alice.waitFor(request);

    const dave = await server!.connect('dave');
    const { events } = await dave.ok('session:attach', { sessionId, role: 'driver' });
    const pending = events.find(request);
    if (pending?.type !== 'permission_request') throw new Error('the replay did not include the open request');
    await dave.ok('permission:respond', { sessionId, requestId: pending.requestId, decision: 'allow_session', scope: 'printf *' });
    const done = await alice.waitFor(turnDone);
    expect(done).toMatchObject({ outcome: 'answered' });
    const result = alice.events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ isError: false, output: expect.stringContaining('late') });
  });

  it('denies automatically when nobody answers, stops the turn, and audits it', async () => {
    const { alice, sessionId } = await start({ permissionTimeoutMs: 300 });
    fake.enqueue({ toolCalls: [{ name: 'delete_file', args: { path: 'nothing.txt' } }] }, { chunks: ['never'] });
    await alice.ok('session:send', { sessionId, text: 'delete it' });
    expect(await alice.waitFor((e) => e.type === 'permission_resolved')).toMatchObject({ decision: 'deny_once', by: 'system', reason: 'timeout' });
    expect(await alice.waitFor(turnDone)).toMatchObject({ outcome: 'permission_timeout' });
    const result = alice.events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ isError: true, output: 'permission request timed out after 0.3 s (automatic deny)' });
    const { records } = await alice.ok('audit:query', {});
    expect(records.at(-1)).toMatchObject({ tool: 'delete_file', decision: 'timeout', decidedBy: 'system' });
  });

  it('keeps secrets out of the audit file even when the command and its output carry one', async () => {
    const name = 'TANDEM_E2E_SECRET_TOKEN';
    const secret = `plain-words-${randomInt(100_000, 999_999)}-pony`;
    process.env[name] = secret;
    try {
      const { alice, sessionId, dataDir, host: guards } = await start();
      fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: `printf ${secret}` } }] }, { chunks: ['printed'] });
      await alice.ok('session:send', { sessionId, text: 'print it' });
      const asked = await alice.waitFor(request);
      if (asked.type !== 'permission_request') throw new Error('unreachable');
      await alice.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'allow_once' });
      await alice.waitFor(turnDone);
      const result = alice.events.find((e) => e.type === 'tool_result');
      expect(result).toMatchObject({ output: expect.stringContaining(secret) }); // the command really printed it
      await guards.audit.flush();
      const text = await readFile(path.join(dataDir, AUDIT_FILE), 'utf8');
      expect(text).toContain('run_command');
      expect(text).not.toContain(secret);
    } finally {
      delete process.env[name];
    }
  });

  it('answers rate_limited once a connection exceeds its command budget', async () => {
    const { alice } = await start({ connectionLimit: { ratePerSecond: 0.001, burst: 3 } }); // create + attach used 2
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await alice.request('session:list', {}));
    expect(replies.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'rate_limited', 'rate_limited']);
  });
});
