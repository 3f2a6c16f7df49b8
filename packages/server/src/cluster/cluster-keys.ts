/** Every Redis key and channel of one cluster, under one prefix. */
export interface ClusterKeys {
  /** String `NODE|TOKEN`, with an expiry: who runs the session, and its fencing token. */
  lease(sessionId: string): string;
  /** Counter: the last fencing token handed out for the session. */
  fence(sessionId: string): string;
  /** Hash sessionId → JSON `IndexEntry`: every session of the cluster. */
  readonly index: string;
  /** String: the instance currently running under a node id, with an expiry. */
  node(nodeId: string): string;
  /** Pub/sub channel a node reads requests and replies on. */
  rpc(nodeId: string): string;
  /** Redis stream (and pub/sub prefix) of socket.io's adapter. */
  readonly adapterStream: string;
  /** Hash shareId → JSON `ShareRecord`: every share of the cluster (token hashes only). */
  readonly shares: string;
  /** Hash token hash → shareId: the handshake's lookup. */
  readonly shareTokens: string;
}

export function clusterKeys(prefix: string): ClusterKeys {
  return {
    lease: (sessionId) => `${prefix}:lease:${sessionId}`,
    fence: (sessionId) => `${prefix}:fence:${sessionId}`,
    index: `${prefix}:sessions`,
    node: (nodeId) => `${prefix}:node:${nodeId}`,
    rpc: (nodeId) => `${prefix}:rpc:${nodeId}`,
    adapterStream: `${prefix}:socket.io`,
    shares: `${prefix}:shares`,
    shareTokens: `${prefix}:share-tokens`,
  };
}
