import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { Redis } from 'ioredis';
import type { ClusterKeys } from './cluster-keys.js';

export interface RedisStreamsAdapter {
  /** Give it to socket.io's Server as `adapter`. */
  adapter: ReturnType<typeof createAdapter>;
  /**
   * Disconnects the connections the adapter opened itself (`client.duplicate()`: the stream
   * reader and its pub/sub). Closing socket.io only asks the reader to stop after its blocking
   * read returns (up to 5 s later); if Redis went away meanwhile, a copy of a client that waits
   * for Redis through an outage would retry forever and keep the process alive.
   */
  disconnectCopies(): void;
}

/**
 * socket.io's Redis streams adapter: a broadcast to a room (a session's events) is appended to
 * one Redis stream that every node reads, and delivered to that room's sockets on every node.
 * The client given must wait for Redis through an outage (so nothing published then is dropped).
 */
export function redisStreamsAdapter(client: Redis, keys: ClusterKeys): RedisStreamsAdapter {
  const copies: Redis[] = [];
  const duplicate = client.duplicate.bind(client);
  client.duplicate = ((...args: Parameters<Redis['duplicate']>) => {
    const copy = duplicate(...args);
    copies.push(copy);
    return copy;
  }) as Redis['duplicate'];
  const adapter = createAdapter(client, {
    streamName: keys.adapterStream,
    channelPrefix: keys.adapterStream,
    // Session events are JSON: no need to look for binary in each one.
    onlyPlaintext: true,
  });
  return {
    adapter,
    disconnectCopies: () => {
      for (const copy of copies) copy.disconnect();
    },
  };
}
