import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ClusterKeys } from './cluster-keys.js';

/**
 * Renews the lease when this node holds it; takes it when nobody does (a new session, or Redis
 * restarted and forgot it), with the next fencing token; otherwise answers `!HOLDER`.
 * KEYS: lease, fence. ARGV: the value held ('' for none), node id, ttl ms.
 */
const HOLD = `
local current = redis.call('GET', KEYS[1])
if current and current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return current
end
if current then return '!' .. current end
local token = redis.call('INCR', KEYS[2])
local value = ARGV[2] .. '|' .. token
redis.call('SET', KEYS[1], value, 'PX', ARGV[3])
return value
`;

/** Deletes the lease only when it is still ours. KEYS: lease. ARGV: the value held. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** `NODE|TOKEN` → its parts. */
export function parseLease(value: string): { nodeId: string; token: number } {
  const bar = value.lastIndexOf('|');
  return { nodeId: value.slice(0, bar), token: Number(value.slice(bar + 1)) };
}

/**
 * The leases of the sessions this node runs: a key per session, set only when absent, renewed
 * before it expires, holding `NODE|TOKEN` where TOKEN grows with every new holder (the fencing
 * token). Writes to the shared index check the value held, so a node that lost its lease (a long
 * pause, a partition, a second process under the same node id) cannot write any more.
 */
export class SessionLeases {
  private readonly held = new Map<string, string>();
  private readonly lost = new Map<string, string>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly nodeId: string,
    private readonly leaseMs: number,
    private readonly logger: Logger,
  ) {}

  /** Takes (or renews) the lease; false when another node holds it. */
  async hold(sessionId: string): Promise<boolean> {
    const mine = this.held.get(sessionId) ?? '';
    const reply = String(await this.redis.eval(HOLD, 2, this.keys.lease(sessionId), this.keys.fence(sessionId), mine, this.nodeId, this.leaseMs));
    if (reply.startsWith('!')) {
      if (!this.lost.has(sessionId))
        this.logger.error({ sessionId, holder: reply.slice(1) }, 'lost the lease of a session to another holder; this node stops writing it');
      this.held.delete(sessionId);
      this.lost.set(sessionId, reply.slice(1));
      return false;
    }
    if (this.lost.delete(sessionId)) this.logger.info({ sessionId, lease: reply }, 'took the lease of a session back');
    this.held.set(sessionId, reply);
    return true;
  }

  /** Renews every lease held or lost (a lost one is taken back once its holder lets it expire). */
  async renewAll(): Promise<void> {
    await Promise.all([...new Set([...this.held.keys(), ...this.lost.keys()])].map((id) => this.hold(id)));
  }

  /** `NODE|TOKEN` while this node holds the session's lease. */
  valueOf(sessionId: string): string | undefined {
    return this.held.get(sessionId);
  }

  /** True when the lease was lost to another holder: the session must not be driven here. */
  isLost(sessionId: string): boolean {
    return this.lost.has(sessionId);
  }

  sessionIds(): string[] {
    return [...this.held.keys()];
  }

  forget(sessionId: string): void {
    this.held.delete(sessionId);
    this.lost.delete(sessionId);
  }

  /** Lets every lease go (a clean stop): the other nodes see the sessions offline at once. */
  async releaseAll(): Promise<void> {
    const held = [...this.held];
    this.held.clear();
    this.lost.clear();
    await Promise.all(held.map(([id, value]) => this.redis.eval(RELEASE, 1, this.keys.lease(id), value)));
  }
}
