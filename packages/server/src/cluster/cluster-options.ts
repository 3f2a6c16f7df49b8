/** How a node joins a cluster (`tandem serve --redis URL [--node-id ID]`). */
export interface ClusterOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  redisUrl: string;
  /** This node's name in the cluster; unique among live nodes, kept across restarts. */
  nodeId: string;
  /** How long a lease lives without renewal (default 15 s): a dead owner shows `offline` within it. */
  leaseMs?: number;
  /** How long a command forwarded to the owning node may take before it is answered `internal` (default 120 s). */
  requestTimeoutMs?: number;
  /** Prefix of every key and channel this cluster uses in Redis (default `tandem`). */
  keyPrefix?: string;
  /** When Redis cannot be reached at start: run as a single node (with a warning) instead of failing. */
  optional?: boolean;
}

export const DEFAULT_LEASE_MS = 15_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
export const MIN_LEASE_MS = 300;

const NODE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Throws a readable error for a node id that could clash with key syntax. */
export function checkNodeId(nodeId: string): string {
  if (!NODE_ID.test(nodeId)) {
    throw new Error(`node id "${nodeId}" is not valid: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`);
  }
  return nodeId;
}

/** The options with every default filled in. */
export type ResolvedClusterOptions = Required<Omit<ClusterOptions, 'optional'>> & { optional: boolean };

export function resolveClusterOptions(options: ClusterOptions): ResolvedClusterOptions {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (!Number.isFinite(leaseMs) || leaseMs < MIN_LEASE_MS) throw new Error(`the lease must last at least ${MIN_LEASE_MS} ms, got ${leaseMs}`);
  return {
    redisUrl: options.redisUrl,
    nodeId: checkNodeId(options.nodeId),
    leaseMs,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    keyPrefix: options.keyPrefix ?? 'tandem',
    optional: options.optional ?? false,
  };
}
