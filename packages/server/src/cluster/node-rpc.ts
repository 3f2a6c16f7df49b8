import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { ClusterKeys } from './cluster-keys.js';

/** A request another node could not answer: not connected, too slow, or its handler failed. */
export class RpcError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'timeout' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** Who sent a request: the node id and the process running under it now. */
export interface RpcSender {
  nodeId: string;
  instance: string;
}

type Handler = (params: unknown, from: RpcSender) => Promise<unknown>;

interface Request {
  kind: 'request';
  id: string;
  from: string;
  instance: string;
  method: string;
  params: unknown;
}

interface Reply {
  kind: 'reply';
  id: string;
  ok: boolean;
  result?: unknown;
  error?: string;
}

/**
 * Request and reply between nodes over Redis pub/sub: each node reads its own channel; a request
 * is published on the target's channel (nobody subscribed: unreachable at once), the reply on
 * the requester's. Replies and requests from one node arrive in the order they were published.
 */
export class NodeRpc {
  private readonly handlers = new Map<string, Handler>();
  private readonly pending = new Map<string, { to: string; resolve(value: unknown): void; reject(err: Error): void; timer: NodeJS.Timeout }>();
  private closed = false;

  constructor(
    private readonly pub: Redis,
    private readonly sub: Redis,
    private readonly keys: ClusterKeys,
    private readonly nodeId: string,
    private readonly instance: string,
    private readonly timeoutMs: number,
    private readonly logger: Logger,
  ) {}

  handle(method: string, handler: Handler): void {
    this.handlers.set(method, handler);
  }

  async start(): Promise<void> {
    const channel = this.keys.rpc(this.nodeId);
    this.sub.on('message', (from: string, raw: string) => {
      if (from === channel) this.onMessage(raw);
    });
    await this.sub.subscribe(channel);
  }

  async request(nodeId: string, method: string, params: unknown): Promise<unknown> {
    // A stopping node asks nothing more: a request sent now would wait out the whole timeout
    // (the leave of a stopping node waited 120 s on one, for a node killed a moment before).
    if (this.closed) throw new RpcError('unreachable', 'this node is stopping');
    const id = randomUUID();
    const answered = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcError('timeout', `node ${nodeId} did not answer ${method} within ${Math.round(this.timeoutMs / 1000)} s`));
      }, this.timeoutMs);
      this.pending.set(id, { to: nodeId, resolve, reject, timer });
    });
    // Settled (by close or a timeout) possibly before the caller awaits it: never an unhandled rejection.
    answered.catch(() => undefined);
    const request: Request = { kind: 'request', id, from: this.nodeId, instance: this.instance, method, params };
    let receivers: number;
    try {
      receivers = await this.pub.publish(this.keys.rpc(nodeId), JSON.stringify(request));
    } catch (err) {
      this.settle(id, undefined, new RpcError('unreachable', `cannot reach node ${nodeId}: Redis is unavailable (${errorText(err)})`));
      return answered;
    }
    if (receivers === 0) this.settle(id, undefined, new RpcError('unreachable', `node ${nodeId} is not connected to the cluster`));
    return answered;
  }

  /** The nodes that requests are waiting on. */
  waitingOn(): string[] {
    return [...new Set([...this.pending.values()].map((p) => p.to))];
  }

  /** Fails the requests waiting on `nodeId` at once (it is gone: no reply will come). */
  failPendingTo(nodeId: string): void {
    for (const [id, waiting] of [...this.pending]) {
      if (waiting.to === nodeId) this.settle(id, undefined, new RpcError('unreachable', `node ${nodeId} went away before answering`));
    }
  }

  /** Fails every request still waiting, and every one asked from now on (the node is stopping). */
  close(): void {
    this.closed = true;
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, new RpcError('unreachable', 'this node is stopping'));
  }

  private onMessage(raw: string): void {
    let message: Request | Reply;
    try {
      message = JSON.parse(raw) as Request | Reply;
    } catch {
      return this.logger.warn('ignored an unreadable message on the cluster channel');
    }
    if (message.kind === 'reply') {
      return this.settle(message.id, message.result, message.ok ? undefined : new RpcError('failed', message.error ?? 'failed'));
    }
    if (message.kind === 'request') void this.answer(message);
  }

  private async answer(request: Request): Promise<void> {
    const handler = this.handlers.get(request.method);
    let reply: Reply;
    try {
      if (!handler) throw new Error(`no handler for ${request.method} on node ${this.nodeId}`);
      reply = { kind: 'reply', id: request.id, ok: true, result: await handler(request.params, { nodeId: request.from, instance: request.instance }) };
    } catch (err) {
      this.logger.error({ err, method: request.method, from: request.from }, 'a request from another node failed');
      reply = { kind: 'reply', id: request.id, ok: false, error: errorText(err) };
    }
    try {
      await this.pub.publish(this.keys.rpc(request.from), JSON.stringify(reply));
    } catch (err) {
      this.logger.warn({ err: errorText(err), to: request.from }, 'could not send a reply to another node');
    }
  }

  private settle(id: string, value: unknown, error?: Error): void {
    const waiting = this.pending.get(id);
    if (!waiting) return;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    if (error) waiting.reject(error);
    else waiting.resolve(value);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
