import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';

/** The URL with its password replaced, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparsable URL)';
  }
}

/** Redis could not be reached when the node started. */
export class RedisUnreachableError extends Error {}

/**
 * Connects once, without retrying, and pings: a node started with `--redis` fails at once with
 * a readable reason (nothing listens, wrong password, not a URL) instead of retrying silently.
 */
export async function probeRedis(url: string, timeoutMs = 5000): Promise<void> {
  if (!/^rediss?:\/\//.test(url)) throw new RedisUnreachableError(`--redis expects a redis:// or rediss:// URL, got "${url}"`);
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  // ioredis rejects with "Connection is closed."; the socket's own error (ECONNREFUSED, ENOTFOUND, NOAUTH) says why.
  let cause: Error | undefined;
  probe.on('error', (err: Error) => {
    cause ??= err;
  });
  try {
    await probe.connect();
    await probe.ping();
  } catch (err) {
    const reason = (cause ?? (err instanceof Error ? err : new Error(String(err)))).message;
    throw new RedisUnreachableError(
      `cannot reach Redis at ${redactRedisUrl(url)}: ${reason}; start Redis or fix --redis (add --redis-optional to run as a single node when Redis is down)`,
    );
  } finally {
    probe.disconnect();
  }
}

/**
 * A client that reconnects for ever (100 ms, growing to 2 s between attempts) and logs an outage
 * once when it starts and once when it ends. `waitForever`: commands issued while Redis is away
 * wait for it instead of failing (socket.io's adapter: an event published during an outage goes
 * out when Redis is back).
 */
export function openRedis(url: string, role: string, logger: Logger, options: { waitForever?: boolean } = {}): Redis {
  const settings: RedisOptions = {
    retryStrategy: (times) => Math.min(100 * times, 2000),
    maxRetriesPerRequest: options.waitForever ? null : 2,
    connectionName: `tandem-${role}`,
  };
  const client = new Redis(url, settings);
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger.warn({ role, err: err.message }, 'lost the connection to Redis; reconnecting');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info({ role }, 'reconnected to Redis');
  });
  return client;
}
