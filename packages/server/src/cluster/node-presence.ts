import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ClusterKeys } from './cluster-keys.js';

/** Renews the node key when it is ours, sets it again when Redis forgot it. KEYS: node. ARGV: instance, ttl. */
const RENEW = `
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if current then return -1 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * The key saying which process runs under a node id, renewed with the leases. A node starting
 * under an id whose key is still there waits for it to expire (its previous process crashed:
 * at most one lease time) and gives up with a clear error after that (another live node uses
 * the id). Other nodes read these keys to forget clients attached through a node that died.
 */
export class NodePresence {
  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly nodeId: string,
    private readonly instanceId: string,
    private readonly leaseMs: number,
    private readonly logger: Logger,
  ) {}

  async claim(signal?: AbortSignal): Promise<void> {
    const key = this.keys.node(this.nodeId);
    const giveUpAt = Date.now() + this.leaseMs * 2 + 1000;
    let warned = false;
    for (;;) {
      const set = await this.redis.set(key, this.instanceId, 'PX', this.leaseMs, 'NX');
      if (set === 'OK') return;
      if (Date.now() > giveUpAt || signal?.aborted) {
        throw new Error(
          `node id "${this.nodeId}" is in use by another running node of this cluster; give each node its own --node-id (and its own data directory)`,
        );
      }
      if (!warned) {
        warned = true;
        this.logger.warn({ nodeId: this.nodeId }, 'node id still held (a previous run that did not stop cleanly?); waiting for its key to expire');
      }
      const ttl = await this.redis.pttl(key);
      await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(ttl, 50), 1000)));
    }
  }

  async renew(): Promise<void> {
    const reply = await this.redis.eval(RENEW, 1, this.keys.node(this.nodeId), this.instanceId, this.leaseMs);
    if (reply === -1) this.logger.error({ nodeId: this.nodeId }, 'another process runs under this node id; give each node its own --node-id');
  }

  /** The process running under each of `nodeIds` (absent: none, the node is gone). */
  async alive(nodeIds: string[]): Promise<Map<string, string>> {
    if (nodeIds.length === 0) return new Map();
    const values = await this.redis.mget(...nodeIds.map((id) => this.keys.node(id)));
    return new Map(nodeIds.flatMap((id, i) => (values[i] ? [[id, values[i]] as [string, string]] : [])));
  }

  async release(): Promise<void> {
    await this.redis.eval(RELEASE, 1, this.keys.node(this.nodeId), this.instanceId);
  }
}
