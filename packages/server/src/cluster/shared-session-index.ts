import type { Redis } from 'ioredis';
import { SessionInfoSchema, type SessionInfo } from '@tandem/shared';
import type { ClusterKeys } from './cluster-keys.js';
import { parseLease } from './session-lease.js';

/** Writes the entry only while the lease value given is still the session's lease (fencing). */
const WRITE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1
`;

/** Removes the entry, the lease and the fence counter, again only for the lease holder. */
const REMOVE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[2], ARGV[2])
redis.call('DEL', KEYS[1], KEYS[3])
return 1
`;

/**
 * Removes the entry of a session nobody holds the lease of (its node is gone), checked in the
 * same step; returns the holder's lease value instead when one holds it. The fence counter stays,
 * so a node that brings the session back still gets a fencing token above every earlier one.
 * KEYS: lease, index. ARGV: session id.
 */
const REMOVE_OFFLINE = `
local holder = redis.call('GET', KEYS[1])
if holder then return holder end
redis.call('HDEL', KEYS[2], ARGV[1])
return ''
`;

/** One session as every node sees it. */
export interface ClusterSession {
  /** The last state its owner published; `status` is `offline` when no node holds its lease. */
  info: SessionInfo;
  /** The node that runs (or last ran) it. */
  nodeId: string;
  online: boolean;
}

interface StoredEntry {
  info: unknown;
  nodeId: unknown;
}

/**
 * The cluster's session index: a Redis hash of sessionId → the owner's last published info and
 * node id. Only the lease holder writes an entry; a reader marks the sessions whose lease is
 * gone `offline`, keeping the rest of what was last known.
 */
export class SharedSessionIndex {
  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
  ) {}

  /** False when the lease given is not the session's lease any more (nothing written). */
  async write(info: SessionInfo, nodeId: string, lease: string): Promise<boolean> {
    const entry = JSON.stringify({ info, nodeId });
    return (await this.redis.eval(WRITE, 2, this.keys.lease(info.id), this.keys.index, lease, info.id, entry)) === 1;
  }

  async remove(sessionId: string, lease: string): Promise<boolean> {
    return (await this.redis.eval(REMOVE, 3, this.keys.lease(sessionId), this.keys.index, this.keys.fence(sessionId), lease, sessionId)) === 1;
  }

  /**
   * Removes an offline session's entry (its node is gone for good). Answers `removed: false` with
   * the holder when a node holds its lease (it is back, or never left): then nothing is removed.
   */
  async removeOffline(sessionId: string): Promise<{ removed: true } | { removed: false; holder: string }> {
    const holder = String(await this.redis.eval(REMOVE_OFFLINE, 2, this.keys.lease(sessionId), this.keys.index, sessionId));
    return holder === '' ? { removed: true } : { removed: false, holder: parseLease(holder).nodeId };
  }

  async readAll(): Promise<ClusterSession[]> {
    const raw = await this.redis.hgetall(this.keys.index);
    const ids = Object.keys(raw);
    if (ids.length === 0) return [];
    const leases = await this.redis.mget(...ids.map((id) => this.keys.lease(id)));
    return ids.flatMap((id, i) => {
      const entry = decode(raw[id]!);
      return entry ? [view(entry, leases[i] ?? null)] : [];
    });
  }

  async find(sessionId: string): Promise<ClusterSession | undefined> {
    const [raw, lease] = await Promise.all([this.redis.hget(this.keys.index, sessionId), this.redis.get(this.keys.lease(sessionId))]);
    const entry = raw ? decode(raw) : undefined;
    return entry ? view(entry, lease) : undefined;
  }
}

function decode(raw: string): { info: SessionInfo; nodeId: string } | undefined {
  try {
    const entry = JSON.parse(raw) as StoredEntry;
    const info = SessionInfoSchema.safeParse(entry.info);
    if (!info.success || typeof entry.nodeId !== 'string') return undefined;
    return { info: info.data, nodeId: entry.nodeId };
  } catch {
    return undefined;
  }
}

function view(entry: { info: SessionInfo; nodeId: string }, lease: string | null): ClusterSession {
  if (lease === null) return { info: { ...entry.info, status: 'offline' }, nodeId: entry.nodeId, online: false };
  return { info: entry.info, nodeId: parseLease(lease).nodeId, online: true };
}
