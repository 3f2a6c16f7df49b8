import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Redis } from 'ioredis';
import type { ClusterKeys } from './cluster-keys.js';

/**
 * socket.io's Redis streams adapter: a broadcast to a room (a session's events) is appended to
 * one Redis stream that every node reads, and delivered to that room's sockets on every node.
 * The client given must wait for Redis through an outage (so nothing published then is dropped).
 */
export function redisStreamsAdapter(client: Redis, keys: ClusterKeys): ReturnType<typeof createAdapter> {
  return createAdapter(client, {
    streamName: keys.adapterStream,
    channelPrefix: keys.adapterStream,
    // Session events are JSON: no need to look for binary in each one.
    onlyPlaintext: true,
  });
}
