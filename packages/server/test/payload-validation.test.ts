import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ack } from '@tandem/shared';
import { Commands } from '@tandem/shared';
import { connectSocket, startTestServer, TOKENS, type TestServer } from './server-harness.js';
import type { Socket } from 'socket.io-client';

/**
 * Every command payload must be a plain JSON object; anything else is `bad_request` with a
 * message saying what arrived. Unknown command names with an ack are answered too. All through
 * a real server and a real socket.io client (binary payloads travel as socket.io attachments).
 */
let server: TestServer;
let socket: Socket;

beforeAll(async () => {
  // Many quick probes from one connection: the flood limit is not the subject here.
  server = await startTestServer({ guards: { connectionLimit: { ratePerSecond: 1000, burst: 1000 } } });
  socket = connectSocket(server.url, { token: TOKENS.control, name: 'prober' });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
});

afterAll(async () => {
  socket.close();
  await server.stop();
});

function send(name: string, ...payload: unknown[]): Promise<Ack<unknown>> {
  return socket.timeout(10_000).emitWithAck(name, ...payload) as Promise<Ack<unknown>>;
}

async function sessionCount(): Promise<number> {
  const reply = (await send('session:list', {})) as Ack<{ sessions: unknown[] }>;
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.data.sessions.length;
}

const notObjects: Array<[string, unknown, RegExp]> = [
  ['a Buffer', Buffer.from('{"cwd":"/"}'), /JSON object.*binary data \(11 bytes\)/],
  ['an ArrayBuffer', new TextEncoder().encode('{}').buffer, /JSON object.*binary data/],
  ['a Uint8Array', new Uint8Array([123, 125]), /JSON object.*binary data/],
  ['an array', [{ cwd: '/' }], /JSON object.*an array/],
  ['a string', '{"cwd":"/"}', /JSON object.*a string/],
  ['a number', 42, /JSON object.*a number/],
  ['a boolean', true, /JSON object.*a boolean/],
  ['null', null, /JSON object.*null/],
];

describe('command payloads', () => {
  it.each(notObjects)('refuses %s as session:create payload and creates nothing', async (_what, payload, message) => {
    const before = await sessionCount();
    const reply = await send('session:create', payload);
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('bad_request');
    expect(reply.error.message).toMatch(/^session:create: /);
    expect(reply.error.message).toMatch(message);
    expect(await sessionCount()).toBe(before);
  });

  it.each(notObjects.filter(([what]) => what !== 'null'))('refuses %s for commands with an optional payload too', async (_what, payload, message) => {
    for (const name of ['session:list', 'models:list', 'server:status']) {
      const reply = await send(name, payload);
      expect(reply.ok === false && reply.error.code, name).toBe('bad_request');
      expect(reply.ok === false && reply.error.message, name).toMatch(message);
    }
  });

  it('refuses binary data nested inside an otherwise valid object, naming where', async () => {
    const reply = await send('session:create', { title: 'x', extra: { blob: Buffer.from('abc') } });
    expect(reply.ok === false && reply.error.code).toBe('bad_request');
    expect(reply.ok === false && reply.error.message).toMatch(/payload\.extra\.blob is binary data \(3 bytes\)/);
    const inArray = await send('session:create', { title: 'x', list: [1, new Uint8Array([1])] });
    expect(inArray.ok === false && inArray.error.message).toMatch(/payload\.list\[1\] is binary data/);
  });

  it('accepts no payload where the payload is optional, and asks for one where it is not', async () => {
    expect((await send('session:list')).ok).toBe(true);
    // socket.io sends an explicit undefined as null: "no payload" where it is optional.
    expect((await send('session:list', undefined)).ok).toBe(true);
    expect((await send('session:list', null)).ok).toBe(true);
    expect((await send('models:list')).ok).toBe(true);
    const status = await send('server:status');
    // server:status answers (or says it is not available yet) but never rejects a missing payload.
    expect(status.ok || status.error.code !== 'bad_request').toBe(true);
    const attach = await send('session:attach');
    expect(attach.ok === false && attach.error.code).toBe('bad_request');
    expect(attach.ok === false && attach.error.message).toMatch(/session:attach needs a payload/);
    const attachNull = await send('session:attach', null);
    expect(attachNull.ok === false && attachNull.error.message).toMatch(/session:attach: expected a JSON object with its fields, got null/);
  });

  it('still accepts a valid object payload', async () => {
    const reply = await send('session:create', JSON.parse('{"title":"ok"}'));
    expect(reply.ok).toBe(true);
  });
});

describe('unknown command names', () => {
  it('answers an unknown name sent with an ack as bad_request naming the known commands', async () => {
    const reply = await send('session:explode', { sessionId: 'x' });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('bad_request');
    expect(reply.error.message).toContain('unknown command "session:explode"');
    for (const name of ['session:create', 'session:attach', 'session:send', 'permission:respond']) expect(reply.error.message).toContain(name);
    expect(reply.error.message).toContain(Object.keys(Commands).sort()[0]!);
    // With only an ack and no payload, too.
    const bare = await send('nope');
    expect(bare.ok === false && bare.error.code).toBe('bad_request');
  });

  it('ignores an unknown name without an ack and keeps the connection working', async () => {
    socket.emit('no:such:command', { a: 1 });
    socket.emit('no:such:command');
    const reply = await send('session:list', {});
    expect(reply.ok).toBe(true);
    expect(socket.connected).toBe(true);
  });
});
