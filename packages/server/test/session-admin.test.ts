import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { providerEnvDigest } from '../src/serve/provider-env.js';
import { fakeModelBed, startTestServer, type TestClient, type TestServer, TOKENS } from './server-harness.js';

/**
 * Daily-use commands on a real server with real socket.io clients and the openai SDK against
 * the scripted fake model: session:configure, session:clear, session:delete, server:status.
 */
const bed = fakeModelBed({ fakePer: 'file' });

async function start(dataDir?: string): Promise<{ server: TestServer; alice: TestClient; bob: TestClient; sessionId: string }> {
  const server = await startTestServer({
    env: { ...bed.env(), ANTHROPIC_API_KEY: 'anthropic-test-key' },
    defaultModel: 'openai/fake-a',
    ...(dataDir ? { dataDir } : {}),
  });
  bed.server = server;
  const alice = await server.connect('alice');
  const bob = await server.connect('bob', TOKENS.view);
  const existing = (await alice.ok('session:list', {})).sessions[0];
  const sessionId = existing?.id ?? (await alice.ok('session:create', { title: 'admin' })).session.id;
  await alice.ok('session:attach', { sessionId, role: 'driver' });
  await bob.ok('session:attach', { sessionId, role: 'viewer' });
  await alice.waitFor((e) => e.type === 'presence' && e.clients.length === 2);
  return { server, alice, bob, sessionId };
}

/** Starts a turn whose model request hangs, and returns once the fake model holds it (so cancelling leaves no reply queued). */
async function hangingTurn(alice: TestClient, sessionId: string): Promise<void> {
  bed.fake.enqueue({ hang: true });
  await alice.ok('session:send', { sessionId, text: 'this one hangs' });
  await until(() => bed.fake.pending() === 0);
}

/** Waits for a state of the fake model server, checking on every turn of the event loop. */
async function until(test: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('the expected state did not come');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function runTurn(alice: TestClient, sessionId: string, text: string): Promise<void> {
  const before = alice.events.filter((e) => e.type === 'turn_done').length;
  await alice.ok('session:send', { sessionId, text });
  await alice.waitFor(() => alice.events.filter((e) => e.type === 'turn_done').length > before);
}

describe('session:configure', () => {
  it('switches the model for the next turn, sets mode and title, tells every client, and keeps them across a restart', async () => {
    const { server, alice, bob, sessionId } = await start();
    bed.fake.enqueue({ text: 'first' });
    await runTurn(alice, sessionId, 'hello');
    expect(bed.fake.requests.at(-1)?.model).toBe('fake-a');

    const { session } = await alice.ok('session:configure', { sessionId, model: 'openai/fake-b', mode: 'read-only', title: 'renamed' });
    expect(session).toMatchObject({ model: 'openai/fake-b', mode: 'read-only', title: 'renamed' });
    const seen = await bob.waitFor((e) => e.type === 'session_configured');
    expect(seen).toMatchObject({ type: 'session_configured', by: 'alice', model: 'openai/fake-b', mode: 'read-only', title: 'renamed' });

    bed.fake.enqueue({ text: 'second' });
    await runTurn(alice, sessionId, 'again');
    expect(bed.fake.requests.at(-1)?.model).toBe('fake-b');
    const started = alice.events.filter((e) => e.type === 'turn_started').at(-1);
    expect(started?.type === 'turn_started' && started.model).toBe('openai/fake-b');

    // Only what changed is recorded; the same values again record nothing.
    const count = alice.events.filter((e) => e.type === 'session_configured').length;
    await alice.ok('session:configure', { sessionId, mode: 'read-only' });
    await alice.ok('session:configure', { sessionId, mode: 'auto-edit' });
    const last = await alice.waitFor((e) => e.type === 'session_configured' && e.mode === 'auto-edit');
    expect(last).not.toHaveProperty('model');
    expect(alice.events.filter((e) => e.type === 'session_configured').length).toBe(count + 1);

    const index = JSON.parse(await readFile(join(server.dataDir, 'sessions.json'), 'utf8')) as { sessions: Array<Record<string, unknown>> };
    expect(index.sessions.find((s) => s.id === sessionId)).toMatchObject({ model: 'openai/fake-b', mode: 'auto-edit', title: 'renamed' });

    await server.stop();
    const again = await start(server.dataDir);
    const listed = (await again.alice.ok('session:list', {})).sessions.find((s) => s.id === sessionId);
    expect(listed).toMatchObject({ model: 'openai/fake-b', mode: 'auto-edit', title: 'renamed' });
  }, 240_000);

  it('refuses a bad model, an empty title and a viewer, and changes nothing', async () => {
    const { alice, bob, sessionId } = await start();
    const badModel = await alice.request('session:configure', { sessionId, model: 'nosuchprovider/x' });
    expect(badModel.ok).toBe(false);
    if (!badModel.ok) expect(badModel.error.code).toBe('bad_request');
    const blank = await alice.request('session:configure', { sessionId, title: '   ' });
    expect(blank.ok).toBe(false);
    if (!blank.ok) expect(blank.error.code).toBe('bad_request');
    const viewer = await bob.request('session:configure', { sessionId, mode: 'auto-edit' });
    expect(viewer.ok).toBe(false);
    if (!viewer.ok) expect(viewer.error.code).toBe('forbidden');
    const badMode = await alice.request('session:configure', { sessionId, mode: 'yolo' });
    expect(badMode.ok).toBe(false);
    const info = (await alice.ok('session:list', {})).sessions.find((s) => s.id === sessionId);
    expect(info).toMatchObject({ model: 'openai/fake-a', mode: 'ask', title: 'admin' });
    expect(alice.events.some((e) => e.type === 'session_configured')).toBe(false);
  }, 240_000);
});

describe('session:clear', () => {
  it('empties the conversation without consolidating memory; refused while a turn runs', async () => {
    const { alice, bob, sessionId } = await start();
    bed.fake.enqueue({ text: 'remember the word PAPAYA' });
    await runTurn(alice, sessionId, 'say something memorable');

    await hangingTurn(alice, sessionId);
    const during = await alice.request('session:clear', { sessionId });
    expect(during.ok).toBe(false);
    if (!during.ok) expect(during.error.code).toBe('conflict');
    await alice.ok('session:cancel', { sessionId });
    await alice.waitFor((e) => e.type === 'turn_cancelled');

    await alice.ok('session:clear', { sessionId });
    expect(await bob.waitFor((e) => e.type === 'conversation_cleared')).toMatchObject({ by: 'alice' });
    expect(alice.events.some((e) => e.type === 'memory_consolidated' || e.type === 'memory_consolidation_failed')).toBe(false);

    bed.fake.enqueue({ text: 'fresh' });
    await runTurn(alice, sessionId, 'after clearing');
    const messages = JSON.stringify(bed.fake.requests.at(-1)?.body.messages);
    expect(messages).toContain('after clearing');
    expect(messages).not.toContain('PAPAYA');
    expect(messages).not.toContain('say something memorable');
    const viewer = await bob.request('session:clear', { sessionId });
    expect(viewer.ok).toBe(false);
  }, 240_000);
});

describe('session:delete', () => {
  it('is refused while a turn runs, then removes the session, its directory and its index entry', async () => {
    const { server, alice, bob, sessionId } = await start();
    const dir = join(server.dataDir, 'sessions', sessionId);
    expect((await stat(dir)).isDirectory()).toBe(true);

    await hangingTurn(alice, sessionId);
    const during = await alice.request('session:delete', { sessionId });
    expect(during.ok).toBe(false);
    if (!during.ok) {
      expect(during.error.code).toBe('conflict');
      expect(during.error.message).toMatch(/running a turn/);
    }
    await alice.ok('session:cancel', { sessionId });
    await alice.waitFor((e) => e.type === 'turn_cancelled');

    const byViewer = await bob.request('session:delete', { sessionId });
    expect(byViewer.ok).toBe(false);
    if (!byViewer.ok) expect(byViewer.error.code).toBe('forbidden');

    await alice.ok('session:delete', { sessionId });
    expect((await alice.ok('session:list', {})).sessions.map((s) => s.id)).not.toContain(sessionId);
    await expect(stat(dir)).rejects.toThrow(/ENOENT/);
    const index = JSON.parse(await readFile(join(server.dataDir, 'sessions.json'), 'utf8')) as { sessions: Array<{ id: string }> };
    expect(index.sessions.map((s) => s.id)).not.toContain(sessionId);
    const send = await alice.request('session:send', { sessionId, text: 'anyone?' });
    expect(send.ok).toBe(false);
    if (!send.ok) expect(send.error.code).toBe('not_found');
    const missing = await alice.request('session:delete', { sessionId });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(missing.error.code).toBe('not_found');
  }, 240_000);
});

describe('server:status', () => {
  it('says version, pid, uptime, sessions, running turns, providers with a key (names only) and the env digest', async () => {
    const { alice, bob, sessionId } = await start();
    const env = { ...bed.env(), ANTHROPIC_API_KEY: 'anthropic-test-key' };
    const idle = await bob.ok('server:status', {});
    expect(idle).toMatchObject({ pid: process.pid, sessions: 1, running: 0, envDigest: providerEnvDigest(env) });
    expect(idle.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(idle.providers).toEqual(['openai', 'anthropic']);
    expect(idle.uptimeMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(idle.startedAt)).not.toBeNaN();
    expect(JSON.stringify(idle)).not.toContain('test-key');
    expect(providerEnvDigest({ ...env, OPENAI_API_KEY: 'another' })).not.toBe(idle.envDigest);
    expect(providerEnvDigest({ ...env, UNRELATED: 'x' })).toBe(idle.envDigest);

    await hangingTurn(alice, sessionId);
    expect(await bob.ok('server:status', {})).toMatchObject({ running: 1 });
    await alice.ok('session:cancel', { sessionId });
    await alice.waitFor((e) => e.type === 'turn_cancelled');
  }, 240_000);
});
