import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '@tandem/shared';
import { connectSocket, startTestServer, TOKENS, type TestServer } from './server-harness.js';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => {
  await server.stop();
});

function connectError(auth: Record<string, unknown>): Promise<string> {
  const socket = connectSocket(server.url, auth);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      socket.close();
      reject(new Error('connected, but should have been refused'));
    });
    socket.once('connect_error', (err) => {
      socket.close();
      resolve(err.message);
    });
  });
}

describe('handshake', () => {
  it('refuses a wrong or missing token with connect_error "unauthorized"', async () => {
    expect(await connectError({ token: 'nope', name: 'x' })).toBe('unauthorized');
    expect(await connectError({})).toBe('unauthorized');
    expect(await connectError({ token: 42 })).toBe('unauthorized');
  });

  it('accepts a valid token whatever the name looks like', async () => {
    const socket = connectSocket(server.url, { token: TOKENS.control, name: 'x'.repeat(500) });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.close();
  });

  it('refuses another protocol version, accepts the same one', async () => {
    const message = await connectError({ token: TOKENS.control, protocolVersion: PROTOCOL_VERSION + 1 });
    expect(message.startsWith('protocol_mismatch: ')).toBe(true);
    const ok = connectSocket(server.url, { token: TOKENS.control, protocolVersion: PROTOCOL_VERSION });
    await new Promise<void>((resolve, reject) => {
      ok.once('connect', () => resolve());
      ok.once('connect_error', reject);
    });
    ok.close();
  });
});

describe('commands', () => {
  it('answers malformed payloads with bad_request and keeps serving', async () => {
    const c = await server.connect('alice');
    const missing = await c.request('session:attach', { role: 'driver' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.error.code).toBe('bad_request');
      expect(missing.error.message).toContain('sessionId');
    }
    const wrongType = await c.request('session:create', { title: 5 });
    expect(wrongType.ok === false && wrongType.error.code).toBe('bad_request');
    const notObject = await c.request('session:send', 'hello');
    expect(notObject.ok === false && notObject.error.code).toBe('bad_request');
    const nullPayload = await c.request('session:detach', null);
    expect(nullPayload.ok === false && nullPayload.error.code).toBe('bad_request');
    // No ack callback at all, and an ack-only emit: neither may crash the server.
    c.socket.emit('session:create', { title: 'no ack' });
    c.socket.emit('session:send', 12, 'not-a-function');
    const listOnlyAck = await c.socket.timeout(5000).emitWithAck('session:list');
    expect(listOnlyAck.ok).toBe(true);
    // The ack-less create still ran (it finishes asynchronously).
    let titles: string[] = [];
    for (let i = 0; i < 50 && !titles.includes('no ack'); i++) {
      titles = (await c.ok('session:list', {})).sessions.map((s) => s.title);
      if (!titles.includes('no ack')) await new Promise((r) => setTimeout(r, 20));
    }
    expect(titles).toContain('no ack');
  });

  it('answers not_found for an unknown session', async () => {
    const c = await server.connect('alice');
    const reply = await c.request('session:attach', { sessionId: 'missing', role: 'viewer' });
    expect(reply.ok === false && reply.error.code).toBe('not_found');
    const send = await c.request('session:send', { sessionId: 'missing', text: 'hi' });
    expect(send.ok === false && send.error.code).toBe('not_found');
  });

  it('lets the view token watch but not create, drive or send', async () => {
    const owner = await server.connect('owner');
    const { session } = await owner.ok('session:create', { title: 'shared' });
    const viewer = await server.connect('watcher', TOKENS.view);

    const create = await viewer.request('session:create', {});
    expect(create.ok === false && create.error.code).toBe('forbidden');
    const asDriver = await viewer.request('session:attach', { sessionId: session.id, role: 'driver' });
    expect(asDriver.ok === false && asDriver.error.code).toBe('forbidden');
    const attached = await viewer.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    expect(attached.session.id).toBe(session.id);
    expect(attached.events[0]?.type).toBe('session_info');
    const send = await viewer.request('session:send', { sessionId: session.id, text: 'hi' });
    expect(send.ok === false && send.error.code).toBe('forbidden');

    // A control-token client that attached only as viewer may not send either.
    await owner.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    const ownerSend = await owner.request('session:send', { sessionId: session.id, text: 'hi' });
    expect(ownerSend.ok === false && ownerSend.error.code).toBe('forbidden');
  });

  it('creates sessions with defaults and refuses a cwd that is not a directory', async () => {
    const c = await server.connect('alice');
    const { session } = await c.ok('session:create', {});
    expect(session.cwd).toBe(server.workspace.path);
    expect(session.model).toBe('openai/fake-model');
    expect(session.status).toBe('idle');
    expect(session.lastSeq).toBeGreaterThanOrEqual(1);
    const bad = await c.request('session:create', { cwd: '/definitely/not/here' });
    expect(bad.ok === false && bad.error.code).toBe('bad_request');
    const badModel = await c.request('session:create', { model: 'no-slash' });
    expect(badModel.ok === false && badModel.error.code).toBe('bad_request');
  });

  it('broadcasts presence as clients attach, detach and disconnect', async () => {
    const a = await server.connect('alice');
    const b = await server.connect('bob');
    const { session } = await a.ok('session:create', {});
    await a.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await b.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    await a.waitFor((e) => e.type === 'presence' && e.clients.length === 2);
    b.close();
    const after = await a.waitFor(
      (e) =>
        e.type === 'presence' &&
        e.clients.length === 1 &&
        e.seq > 0 &&
        e.clients[0]!.name === 'alice' &&
        a.events.filter((x) => x.type === 'presence').length >= 3,
    );
    expect(after.type).toBe('presence');
  });
});
