import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionInfo } from '@tandem/shared';
import { clusterKeys } from '../../src/cluster/cluster-keys.js';
import { ClusterNode } from '../../src/cluster/cluster-node.js';
import { NodePresence } from '../../src/cluster/node-presence.js';
import { SessionLeases } from '../../src/cluster/session-lease.js';
import { SharedSessionIndex } from '../../src/cluster/shared-session-index.js';
import { parseServeArgs } from '../../src/serve/run-serve.js';
import type { TestServer } from '../server-harness.js';
import { clusterPrefix, startNode, until } from './cluster-harness.js';
import { startRedis } from './redis-process.js';

const redis = await startRedis();
const silent = pino({ level: 'silent' });
const clients: Redis[] = [];
const nodes: TestServer[] = [];
afterAll(async () => {
  for (const node of nodes) await node.stop();
  for (const client of clients) client.disconnect();
  await redis?.stop();
});

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function client(): Redis {
  const c = new Redis(redis!.url);
  clients.push(c);
  return c;
}

const info = (id: string): SessionInfo => ({
  id,
  title: 't',
  cwd: '/tmp',
  model: 'openai/m',
  createdAt: new Date(0).toISOString(),
  status: 'idle',
  lastSeq: 1,
});

describe('starting a node', () => {
  it('fails with a clear error when Redis cannot be reached, and runs alone with --redis-optional', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}`;
    await expect(ClusterNode.connect({ redisUrl: url, nodeId: 'n1' }, silent)).rejects.toThrow(
      /cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+.*ECONNREFUSED.*--redis-optional/,
    );
    await expect(ClusterNode.connect({ redisUrl: 'localhost:6379', nodeId: 'n1' }, silent)).rejects.toThrow(/redis:\/\/ or rediss:\/\/ URL/);
    expect(await ClusterNode.connect({ redisUrl: url, nodeId: 'n1', optional: true }, silent)).toBeUndefined();
  });

  it('parses the cluster flags and refuses bad ones', () => {
    expect(parseServeArgs(['serve', '--redis', 'redis://127.0.0.1:6379', '--node-id', 'node-a', '--lease-seconds', '2.5', '--redis-optional'])).toMatchObject({
      redis: 'redis://127.0.0.1:6379',
      nodeId: 'node-a',
      leaseMs: 2500,
      redisOptional: true,
    });
    // Commander prints its complaint to stderr before throwing; keep the test output clean.
    const stderr = process.stderr.write;
    process.stderr.write = () => true;
    try {
      expect(() => parseServeArgs(['serve', '--node-id', 'node-a'])).toThrow(/go with --redis/);
      expect(() => parseServeArgs(['serve', '--redis', 'redis://x', '--node-id', 'bad id!'])).toThrow();
      expect(() => parseServeArgs(['serve', '--redis', 'redis://x', '--lease-seconds', '0'])).toThrow();
    } finally {
      process.stderr.write = stderr;
    }
  });
});

describe.skipIf(!redis)('leases and fencing (real Redis)', () => {
  it('a node that lost its lease cannot write the index; the next holder gets a larger token', async () => {
    const keys = clusterKeys(clusterPrefix());
    const redisA = client();
    const a = new SessionLeases(redisA, keys, 'node-a', 60_000, silent);
    const b = new SessionLeases(client(), keys, 'node-b', 60_000, silent);
    const index = new SharedSessionIndex(redisA, keys);

    expect(await a.hold('s1')).toBe(true);
    const first = a.valueOf('s1')!;
    expect(first).toMatch(/^node-a\|\d+$/);
    expect(await b.hold('s1')).toBe(false); // held: set only when absent
    expect(await index.write(info('s1'), 'node-a', first)).toBe(true);

    // A pauses past its lease: the key expires, B takes it.
    await redisA.del(keys.lease('s1'));
    expect(await b.hold('s1')).toBe(true);
    const second = b.valueOf('s1')!;
    expect(Number(second.split('|')[1])).toBeGreaterThan(Number(first.split('|')[1]));
    // A wakes up: its write with the old token is refused; its renewal finds the lease lost.
    expect(await index.write({ ...info('s1'), title: 'stale' }, 'node-a', first)).toBe(false);
    expect(await a.hold('s1')).toBe(false);
    expect(a.isLost('s1')).toBe(true);
    expect(a.valueOf('s1')).toBeUndefined();
    const seen = await index.find('s1');
    expect(seen).toMatchObject({ nodeId: 'node-b', online: true });
    expect(seen?.info.title).toBe('t');

    // B lets it go: A's next renewal takes it back, with a larger token still.
    await b.releaseAll();
    await a.renewAll();
    expect(a.isLost('s1')).toBe(false);
    expect(Number(a.valueOf('s1')!.split('|')[1])).toBeGreaterThan(Number(second.split('|')[1]));
    // Without a lease, the session is listed offline with its last state.
    await a.releaseAll();
    expect(await index.find('s1')).toMatchObject({ online: false, info: { status: 'offline', title: 't' } });
  });

  it('a second node under a node id in use waits for it, then gives up with a clear error', async () => {
    const keys = clusterKeys(clusterPrefix());
    const live = new NodePresence(client(), keys, 'same', 'first-process', 300, silent);
    await live.claim();
    const renewals = setInterval(() => void live.renew(), 100);
    try {
      const second = new NodePresence(client(), keys, 'same', 'second-process', 300, silent);
      await expect(second.claim()).rejects.toThrow(/node id "same" is in use by another running node/);
    } finally {
      clearInterval(renewals);
    }
    // Once the first one stops renewing (crashed), its key expires and the id is free again.
    const restarted = new NodePresence(client(), keys, 'same', 'third-process', 300, silent);
    await restarted.claim();
    expect(await restarted.alive(['same', 'other'])).toEqual(new Map([['same', 'third-process']]));
  });

  it("a node that lost a session's lease refuses to drive it until it holds the lease again", async () => {
    const keyPrefix = clusterPrefix();
    const a = await startNode(redis!, 'node-a', { keyPrefix, leaseMs: 900 });
    nodes.push(a);
    const alice = await a.connect('alice');
    const { session } = await alice.ok('session:create', { title: 'fenced' });
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    expect((await alice.request('session:cancel', { sessionId: session.id })).ok).toBe(true);
    // Another holder took the lease (as if node-a had paused past it).
    const keys = clusterKeys(keyPrefix);
    const redisClient = client();
    await redisClient.set(keys.lease(session.id), 'intruder|999', 'PX', 60_000);
    const refused = await until(
      () => alice.request('session:cancel', { sessionId: session.id }),
      (reply) => !reply.ok,
      'node-a notices it lost the lease',
    );
    expect(!refused.ok && refused.error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/lost its lease/) });
    // The index entry stays the intruder's to write: node-a's renewals do not overwrite it.
    await redisClient.hset(keys.index, session.id, JSON.stringify({ info: { ...info(session.id), title: 'written by the holder' }, nodeId: 'intruder' }));
    await until(
      () => alice.request('session:cancel', { sessionId: session.id }),
      (reply) => !reply.ok,
      'still refused after a renewal',
    );
    expect(JSON.parse((await redisClient.hget(keys.index, session.id))!).info.title).toBe('written by the holder');
    // The holder lets it go: node-a takes it back at its next renewal, with a larger token.
    await redisClient.del(keys.lease(session.id));
    await until(
      () => alice.request('session:cancel', { sessionId: session.id }),
      (reply) => reply.ok,
      'node-a holds the lease again',
    );
    const lease = await redisClient.get(keys.lease(session.id));
    expect(lease).toMatch(/^node-a\|\d+$/);
    expect(Number(lease!.split('|')[1])).toBeGreaterThan(1);
  });

  it('a node whose session was deleted removes it from every list', async () => {
    const keyPrefix = clusterPrefix();
    const a = await startNode(redis!, 'node-a', { keyPrefix });
    nodes.push(a);
    const b = await startNode(redis!, 'node-b', { keyPrefix });
    nodes.push(b);
    const alice = await a.connect('alice');
    const bob = await b.connect('bob');
    const { session } = await alice.ok('session:create', { title: 'short-lived' });
    expect((await bob.ok('session:list', {})).sessions.map((s) => s.id)).toContain(session.id);
    // Deleted through B: forwarded to A, which owns it.
    await bob.ok('session:delete', { sessionId: session.id });
    expect(a.app.sessions.get(session.id)).toBeUndefined();
    expect((await bob.ok('session:list', {})).sessions.map((s) => s.id)).not.toContain(session.id);
    expect((await alice.ok('session:list', {})).sessions.map((s) => s.id)).not.toContain(session.id);
    const gone = await bob.request('session:attach', { sessionId: session.id, role: 'viewer' });
    expect(gone.ok === false && gone.error.code).toBe('not_found');
  });
});
