import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { type Application, type ClusterOptions, createApplication } from '@tandem/server';
import { PROTOCOL_VERSION } from '@tandem/shared';
import { request } from './bench-server.js';
import { DELTAS, streamingTurn, timeStream } from './fan-out.js';
import { startBenchRedis } from './redis-server-process.js';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const VIEWERS = 100;
const ROUNDS = 3;
const TOKENS = { control: 'bench-control-token', view: 'bench-view-token' };

interface Node {
  app: Application;
  url: string;
  dataDir: string;
}

async function startNode(cluster?: ClusterOptions): Promise<Node> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tandem-bench-node-'));
  const app = await createApplication({ dataDir, tokens: TOKENS, ...(cluster ? { cluster } : {}), seams: { engine: { runTurn: streamingTurn } } });
  const { url } = await app.listen(0);
  return { app, url, dataDir };
}

async function connect(url: string, name: string, token: string): Promise<Socket> {
  const socket = io(url, { auth: { token, name, protocolVersion: PROTOCOL_VERSION }, transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * One turn streaming DELTAS text deltas to a driver on the first node and VIEWERS viewers
 * spread evenly over `nodes` nodes; each delta carries the time it was yielded.
 */
async function run(nodeCount: number, redisUrl: string | undefined): Promise<{ p50: number; p99: number; eventsPerSec: number }> {
  const keyPrefix = `bench${Math.random().toString(36).slice(2, 8)}`;
  const nodes: Node[] = [];
  const sockets: Socket[] = [];
  try {
    for (let i = 0; i < nodeCount; i++) nodes.push(await startNode(redisUrl ? { redisUrl, nodeId: `node-${i}`, keyPrefix } : undefined));
    const driver = await connect(nodes[0]!.url, 'driver', TOKENS.control);
    sockets.push(driver);
    const { session } = await request<{ session: { id: string } }>(driver, 'session:create', { title: 'cluster fan-out' });
    await request(driver, 'session:attach', { sessionId: session.id, role: 'driver' });
    for (let i = 0; i < VIEWERS; i++) {
      const viewer = await connect(nodes[i % nodeCount]!.url, `viewer-${i}`, TOKENS.view);
      sockets.push(viewer);
      await request(viewer, 'session:attach', { sessionId: session.id, role: 'viewer' });
    }
    return await timeStream(driver, sockets, session.id);
  } finally {
    for (const socket of sockets) socket.disconnect();
    for (const node of nodes) {
      await node.app.close();
      await rm(node.dataDir, { recursive: true, force: true });
    }
  }
}

/**
 * `tandem serve --redis`: the same streaming turn as the fan-out table, 100 viewers, on one
 * node without Redis (the baseline), one node through socket.io's Redis streams adapter, and
 * two nodes (driver on the first, viewers split evenly). All nodes run in this process, so the
 * table shows what the Redis path costs, not the capacity a second machine adds.
 */
export async function benchClusterFanOut(): Promise<void> {
  const redis = await startBenchRedis();
  if (!redis) {
    console.log('\nCluster fan-out: skipped (redis-server is not installed; apt-get install redis-server)');
    return;
  }
  try {
    const cases: Array<[string, number, string | undefined]> = [
      ['1 node, no Redis (baseline)', 1, undefined],
      ['1 node, Redis adapter', 1, redis.url],
      ['2 nodes, Redis adapter', 2, redis.url],
    ];
    await run(1, undefined); // warm-up (JIT, first connections), not shown
    // Interleaved rounds, the median of each: a machine busy with other work moves every case alike.
    const results = cases.map(() => [] as Array<{ p50: number; p99: number; eventsPerSec: number }>);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, nodeCount, url]] of cases.entries()) results[i]!.push(await run(nodeCount, url));
    }
    const medianOf = (i: number, key: 'p50' | 'p99' | 'eventsPerSec') => median(results[i]!.map((r) => r[key]));
    const rows = cases.map(([label], i) => [
      label,
      String(VIEWERS + 1),
      fmt(medianOf(i, 'p50')),
      fmt(medianOf(i, 'p99')),
      fmt(medianOf(i, 'eventsPerSec'), 0),
      fmt(medianOf(i, 'p99') / medianOf(0, 'p99')),
    ]);
    printTable(
      `Cluster fan-out: one turn streaming ${DELTAS} text deltas to a driver and ${VIEWERS} viewers (nodes in one process, median of ${ROUNDS} interleaved rounds)`,
      ['setup', 'clients', 'p50 ms', 'p99 ms', 'deliveries / s', 'p99 / baseline'],
      rows,
    );
  } finally {
    await redis.stop();
  }
}
