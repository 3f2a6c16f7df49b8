import { afterAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { clusterKeys } from '../../src/cluster/cluster-keys.js';
import { NodeRpc, RpcError } from '../../src/cluster/node-rpc.js';
import { openRedis } from '../../src/cluster/redis-connection.js';
import { startRedis } from './redis-process.js';

const redis = await startRedis();
afterAll(() => redis?.stop());

describe.skipIf(!redis)('NodeRpc once closed', () => {
  it('refuses a request at once instead of waiting out the timeout for a node that may never answer', async () => {
    const logger = pino({ level: 'silent' });
    const keys = clusterKeys(`rpc-close-${process.pid}`);
    const connections = ['a-pub', 'a-sub', 'b-pub', 'b-sub'].map((role) => openRedis(redis!.url, role, logger));
    const [aPub, aSub, bPub, bSub] = connections as [
      ReturnType<typeof openRedis>,
      ReturnType<typeof openRedis>,
      ReturnType<typeof openRedis>,
      ReturnType<typeof openRedis>,
    ];
    try {
      // Node b is connected and subscribed, but its handler never answers: a request to it waits.
      const b = new NodeRpc(bPub, bSub, keys, 'b', 'b-1', 600_000, logger);
      b.handle('never', () => new Promise(() => undefined));
      await b.start();
      const a = new NodeRpc(aPub, aSub, keys, 'a', 'a-1', 600_000, logger);
      await a.start();
      const waiting = a.request('b', 'never', {});
      a.close();
      // Both the request that was waiting and one asked after the close fail now, not in 10 minutes.
      await expect(waiting).rejects.toThrow(/stopping/);
      const late = a.request('b', 'never', {});
      await expect(late).rejects.toBeInstanceOf(RpcError);
      await expect(late).rejects.toThrow(/stopping/);
    } finally {
      for (const connection of connections) connection.disconnect();
    }
  }, 60_000);
});
