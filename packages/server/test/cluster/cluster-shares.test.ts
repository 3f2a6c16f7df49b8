import { afterAll, describe, expect, it } from 'vitest';
import { SHARE_ENDED_EVENT, type ShareEnded } from '@tandem/shared';
import { FakeClock } from '@tandem/testkit';
import type { Socket } from 'socket.io-client';
import { connectSocket, type TestServer } from '../server-harness.js';
import { idleModelFactory, ScriptedLoop } from '../scripted-engine.js';
import { clusterPrefix, startNode } from './cluster-harness.js';
import { startRedis } from './redis-process.js';

/**
 * Shares across a cluster (contract "Sharing one session"): a share made through one node is
 * accepted by every node, its holder acts under its name on a session another node runs, and
 * revoking it (or its expiry) closes its sockets on every node. Two real nodes on a real Redis.
 */
const redis = await startRedis();
afterAll(() => redis?.stop());
const nodes: TestServer[] = [];
afterAll(async () => {
  for (const node of nodes.splice(0)) await node.stop();
});

async function twoNodes(clockB?: FakeClock): Promise<{ a: TestServer; b: TestServer; loop: ScriptedLoop }> {
  const keyPrefix = clusterPrefix();
  const loop = new ScriptedLoop(['ok']);
  const engine = { engine: { runTurn: loop.runTurn }, modelFactory: idleModelFactory };
  const a = await startNode(redis!, 'node-a', { keyPrefix, ...engine });
  nodes.push(a);
  const b = await startNode(redis!, 'node-b', { keyPrefix, ...engine, ...(clockB ? { clock: clockB, guards: 'off' as const } : {}) });
  nodes.push(b);
  return { a, b, loop };
}

function handshake(url: string, token: string): Promise<Socket> {
  const socket = connectSocket(url, { token, name: 'guest' });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

function ending(socket: Socket): Promise<ShareEnded | undefined> {
  let ended: ShareEnded | undefined;
  socket.on(SHARE_ENDED_EVENT, (payload: ShareEnded) => {
    ended = payload;
  });
  return new Promise((resolve) => socket.once('disconnect', () => resolve(ended)));
}

function ask(socket: Socket, name: string, payload: unknown): Promise<{ ok: boolean; data?: unknown; error?: { code: string } }> {
  return socket.timeout(10_000).emitWithAck(name, payload);
}

describe.skipIf(!redis)('shares on a cluster', () => {
  it('made through A, used through B on a session A runs, revoked through A: B closes its socket', async () => {
    const { a, b, loop } = await twoNodes();
    const host = await a.connect('ana');
    const { session } = await host.ok('session:create', { title: 'on a' });
    await host.ok('session:attach', { sessionId: session.id, role: 'driver' });
    const { share, token } = await host.ok('share:create', { sessionId: session.id, name: 'bob', role: 'driver' });

    const bob = await b.connect('someone else', token);
    expect(await bob.ok('client:whoami', {})).toMatchObject({ kind: 'share', name: 'bob' });
    expect((await bob.ok('session:list', {})).sessions.map((x) => x.id)).toEqual([session.id]);
    await bob.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await host.waitFor((e) => e.type === 'presence' && e.clients.some((c) => c.name === 'bob' && c.shareRole === 'driver'));
    await bob.ok('session:send', { sessionId: session.id, text: 'from node b' });
    expect(await host.waitFor((e) => e.type === 'user_message')).toMatchObject({ by: 'bob', text: 'from node b' });
    await loop.waitingForRelease();
    loop.release();
    await host.waitFor((e) => e.type === 'turn_done');
    // Refused on B as on A: another session, a control command.
    expect(await bob.request('session:create', {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    // B lists the share with its socket counted, though the share lives in Redis and the socket on B.
    expect((await (await b.connect('ana on b')).ok('share:list', {})).shares).toEqual([expect.objectContaining({ id: share.id, connected: 1 })]);

    const end = new Promise<ShareEnded | undefined>((resolve) => {
      let ended: ShareEnded | undefined;
      bob.socket.on(SHARE_ENDED_EVENT, (payload: ShareEnded) => {
        ended = payload;
      });
      bob.socket.once('disconnect', () => resolve(ended));
    });
    await host.ok('share:revoke', { id: share.id });
    expect(await end).toEqual({ shareId: share.id, reason: 'revoked', by: 'ana' });
    await expect(handshake(b.url, token)).rejects.toThrow('unauthorized');
    await expect(handshake(a.url, token)).rejects.toThrow('unauthorized');
    await host.waitFor((e) => e.type === 'presence' && !e.clients.some((c) => c.name === 'bob'));
  });

  it('a share used on B expires there on time', async () => {
    const clockB = new FakeClock({ start: Date.now() });
    const { a, b } = await twoNodes(clockB);
    const host = await a.connect('ana');
    const { session } = await host.ok('session:create', {});
    const { share, token } = await host.ok('share:create', { sessionId: session.id, name: 'vera', role: 'viewer', expiresInSec: 3600 });
    const socket = await handshake(b.url, token);
    expect(await ask(socket, 'session:attach', { sessionId: session.id, role: 'viewer' })).toMatchObject({ ok: true });
    const end = ending(socket);
    await clockB.waitForSleepers(1);
    await clockB.advance(Date.parse(share.expiresAt ?? '') - clockB.now());
    expect(await end).toEqual({ shareId: share.id, reason: 'expired' });
    await expect(handshake(b.url, token)).rejects.toThrow('unauthorized');
  });
});
