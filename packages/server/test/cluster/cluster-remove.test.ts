import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { clusterKeys } from '../../src/cluster/cluster-keys.js';
import { SharedSessionIndex } from '../../src/cluster/shared-session-index.js';
import { TOKENS, type TestClient, type TestServer } from '../server-harness.js';
import { AttachedView, clusterPrefix, presenceNames, startNode, until } from './cluster-harness.js';
import { startRedis } from './redis-process.js';

/**
 * Sessions leaving the cluster, on real server nodes and a real redis-server: an offline session
 * of a node gone for good removed from the shared index (never while a node holds its lease,
 * never touching that node's data), and a deleted session's remote clients forgotten on every node.
 */
const redis = await startRedis();
const nodes: TestServer[] = [];
const clients: Redis[] = [];
afterAll(async () => {
  for (const node of nodes.splice(0)) await node.stop();
  for (const client of clients) client.disconnect();
  await redis?.stop();
});

async function node(nodeId: string, keyPrefix: string, dataDir?: string): Promise<TestServer> {
  const started = await startNode(redis!, nodeId, { keyPrefix, ...(dataDir ? { dataDir } : {}) });
  nodes.push(started);
  return started;
}

/** Nodes A and B on a fresh key prefix, alice connected to A and bob to B (control token). */
async function twoNodes(): Promise<{ keyPrefix: string; a: TestServer; b: TestServer; alice: TestClient; bob: TestClient }> {
  const keyPrefix = clusterPrefix();
  const a = await node('node-a', keyPrefix);
  const b = await node('node-b', keyPrefix);
  return { keyPrefix, a, b, alice: await a.connect('alice'), bob: await b.connect('bob') };
}

const listed = async (client: TestClient) => (await client.ok('session:list', {})).sessions;

describe.skipIf(!redis)('sessions leaving the cluster', () => {
  it("removes an offline session of a node gone for good from every node's list, refusing while a node holds its lease; the node's data stays", async () => {
    const { keyPrefix, a, b, alice, bob } = await twoNodes();
    const vera = await b.connect('vera', TOKENS.view);
    const { session } = await alice.ok('session:create', { title: 'on node a' });
    await AttachedView.attach(bob, session.id, 'viewer');

    // While node A holds the lease, the entry cannot be removed as offline: the check and the removal are one step in Redis.
    const redisClient = new Redis(redis!.url);
    clients.push(redisClient);
    const index = new SharedSessionIndex(redisClient, clusterKeys(keyPrefix));
    expect(await index.removeOffline(session.id)).toEqual({ removed: false, holder: 'node-a' });
    expect((await index.find(session.id))?.online).toBe(true);

    // Node A goes away (for good, as far as the others know): offline on B.
    await a.stop();
    // Stopping A disconnects A's sockets only, not those of the other nodes.
    expect(bob.socket.connected && vera.socket.connected).toBe(true);
    await until(
      () => listed(bob),
      (sessions) => sessions.find((s) => s.id === session.id)?.status === 'offline',
      'offline on B',
    );

    // A viewer may not remove it; a control client on B removes it from the cluster's list.
    const refused = await vera.request('session:delete', { sessionId: session.id });
    expect(refused.ok === false && refused.error.code).toBe('forbidden');
    await bob.ok('session:delete', { sessionId: session.id });
    expect((await listed(bob)).map((s) => s.id)).not.toContain(session.id);
    expect(await index.find(session.id)).toBeUndefined();
    expect(b.app.cluster?.remotePresence().attachedElsewhere).not.toContain(session.id);
    const again = await bob.request('session:delete', { sessionId: session.id });
    expect(again.ok === false && again.error.code).toBe('not_found');

    // Node A's data directory is not touched: started again on it, A lists the session again.
    expect(existsSync(join(a.dataDir, 'sessions', session.id, 'events.jsonl'))).toBe(true);
    const back = await node('node-a', keyPrefix, a.dataDir);
    await until(
      () => listed(bob),
      (sessions) => sessions.find((s) => s.id === session.id)?.status === 'idle',
      'the session back on B',
    );
    const carol = await back.connect('carol');
    const { events } = await carol.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  });

  it('deleting a session drops its clients on every node: the owner forgets sockets of other nodes, their nodes forget the attachment', async () => {
    const { a, b, alice, bob } = await twoNodes();
    const { session } = await alice.ok('session:create', { title: 'to delete' });
    const { session: other } = await alice.ok('session:create', { title: 'stays' });
    await AttachedView.attach(bob, session.id, 'viewer');
    const bobId = bob.socket.id as string;
    expect(b.app.cluster?.remotePresence().attachedElsewhere).toEqual([session.id]);
    expect(a.app.cluster?.remotePresence().clientsFromElsewhere).toEqual([bobId]);

    await alice.ok('session:delete', { sessionId: session.id });
    expect(a.app.cluster?.remotePresence().clientsFromElsewhere).toEqual([]);
    await until(
      async () => b.app.cluster?.remotePresence().attachedElsewhere,
      (ids) => ids?.length === 0,
      'node B forgetting the deleted session',
    );

    // Bob still works on B: attached to another session of A, he is A's client again, and only of that one.
    await AttachedView.attach(bob, other.id, 'viewer');
    expect(b.app.cluster?.remotePresence().attachedElsewhere).toEqual([other.id]);
    expect(presenceNames(a, other.id)).toEqual(['bob']);
  });
});
