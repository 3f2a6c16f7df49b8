import { randomBytes } from 'node:crypto';
import type { Role, SessionEvent } from '@tandem/shared';
import type { ClusterOptions } from '../../src/cluster/cluster-options.js';
import { startTestServer, type TestClient, type TestServer, type TestServerOptions } from '../server-harness.js';
import type { RedisProcess } from './redis-process.js';

/** A fresh key prefix: tests sharing one redis-server do not see each other's clusters. */
export function clusterPrefix(): string {
  return `t${randomBytes(4).toString('hex')}`;
}

/** A real server node (in process) joined to the cluster on `redis`. */
export function startNode(redis: RedisProcess, nodeId: string, options: TestServerOptions & { keyPrefix: string; leaseMs?: number }): Promise<TestServer> {
  const { keyPrefix, leaseMs, ...rest } = options;
  const cluster: ClusterOptions = { redisUrl: redis.url, nodeId, keyPrefix, ...(leaseMs !== undefined ? { leaseMs } : {}) };
  return startTestServer({ defaultModel: 'openai/fake-model', ...rest, cluster });
}

/**
 * A session as a client that attached to it sees it, folded like the TUI client does: live
 * events arriving before the ack wait; then the replay, then live events, each persisted seq
 * once. `gaps` lists every place a seq was skipped (there must be none).
 */
export class AttachedView {
  readonly gaps: Array<{ after: number; got: number }> = [];

  private constructor(
    private readonly client: TestClient,
    private readonly sessionId: string,
    private readonly replay: SessionEvent[],
    private readonly mark: number,
  ) {}

  static async attach(client: TestClient, sessionId: string, role: Role, afterSeq?: number): Promise<AttachedView> {
    const mark = client.events.length;
    const { events } = await client.ok('session:attach', { sessionId, role, ...(afterSeq !== undefined ? { afterSeq } : {}) });
    return new AttachedView(client, sessionId, events, mark);
  }

  persisted(): SessionEvent[] {
    const out = this.replay.filter((e) => !e.ephemeral);
    let last = out.at(-1)?.seq ?? 0;
    this.gaps.length = 0;
    for (const event of this.client.events.slice(this.mark)) {
      if (event.sessionId !== this.sessionId || event.ephemeral || event.seq <= last) continue;
      if (event.seq !== last + 1) this.gaps.push({ after: last, got: event.seq });
      out.push(event);
      last = event.seq;
    }
    return out;
  }

  seqs(): number[] {
    return this.persisted().map((e) => e.seq);
  }

  /** Resolves once a persisted event matching `test` is in the view (replayed or live). */
  async waitFor(test: (e: SessionEvent) => boolean, timeoutMs = 20_000): Promise<SessionEvent> {
    const seen = this.persisted().find(test);
    if (seen) return seen;
    return this.client.waitFor((e) => e.sessionId === this.sessionId && !e.ephemeral && test(e), timeoutMs);
  }
}

/** Polls a condition on a state read (the session list), resolving when it holds. */
export async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (holds(last)) return last;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms; last seen ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The names of the clients attached to a session, as the node that runs it lists them. */
export function presenceNames(node: TestServer, sessionId: string): string[] {
  return node.app.sessions
    .require(sessionId)
    .presence.list()
    .map((client) => client.name);
}
