import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Server as IoServer, Socket } from 'socket.io';
import type { Clock } from '@tandem/ai';
import type { Ack, CommandName, SessionEvent, SessionInfo } from '@tandem/shared';
import type { CommandContext, Handler, HandlerMap } from '../handlers/dispatch.js';
import { sessionRoom } from '../handlers/session-handlers.js';
import type { SessionManager } from '../sessions/session-manager.js';
import { redisStreamsAdapter, type RedisStreamsAdapter } from './cluster-adapter.js';
import { clusterKeys, type ClusterKeys } from './cluster-keys.js';
import { resolveClusterOptions, type ClusterOptions, type ResolvedClusterOptions } from './cluster-options.js';
import { CommandRouter } from './command-router.js';
import { DISCONNECT_METHOD, serveForwardedCommands } from './forwarded-commands.js';
import { NodePresence } from './node-presence.js';
import { NodeRpc } from './node-rpc.js';
import { watchRemoteSessions } from './offline-watch.js';
import { openRedis, probeRedis } from './redis-connection.js';
import { RedisShareStore } from './redis-share-store.js';
import { RemoteAttachments } from './remote-attachments.js';
import { RemoteClients } from './remote-clients.js';
import { SessionLeases } from './session-lease.js';
import { type ClusterSession, SharedSessionIndex } from './shared-session-index.js';

/** What the application gives the cluster once its sessions are loaded. */
export interface ClusterHost {
  io: IoServer;
  sessions: SessionManager;
  /** Runs a command with every check as `socket` (dispatch's answerCommand over the app's handlers). */
  run(name: CommandName, payload: unknown, socket: Socket): Promise<Ack<unknown>>;
}

/** Sent to every other node (socket.io's server-side emit) when a session leaves the cluster. */
export const SESSION_REMOVED_EVENT = 'tandem:session-removed';

/** How long after a persisted event the session's entry in the shared index is rewritten. */
const PUBLISH_DELAY_MS = 50;

/**
 * This node's membership of a cluster: socket.io's Redis adapter, the leases of the sessions it
 * runs (renewed a third of the lease time apart, with the shared index entry of each), the
 * merged session list, commands forwarded to and from other nodes, and the watch that tells
 * clients here when the node running their session is gone.
 */
export class ClusterNode {
  /** Give it to socket.io's Server as `adapter`. */
  readonly adapter: RedisStreamsAdapter['adapter'];
  readonly nodeId: string;
  private readonly keys: ClusterKeys;
  private readonly state: Redis;
  private readonly sub: Redis;
  private readonly adapterClient: Redis;
  private readonly disconnectAdapterCopies: () => void;
  private readonly leases: SessionLeases;
  private readonly index: SharedSessionIndex;
  private readonly presence: NodePresence;
  private readonly rpc: NodeRpc;
  private readonly attachments = new RemoteAttachments();
  private readonly remoteClients = new RemoteClients();
  private router: CommandRouter | undefined;
  private host: ClusterHost | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private watching: Promise<void> | undefined;
  private healthy = true;
  private stopped = false;
  private lastRemote: ClusterSession[] = [];
  private readonly toPublish = new Set<string>();
  private publishTimer: NodeJS.Timeout | undefined;

  /**
   * Checks Redis answers (a clear error when not: or undefined, with a warning, when the options
   * say Redis is optional) and claims the node id (waiting out a previous crashed run's key).
   */
  static async connect(options: ClusterOptions, logger: Logger): Promise<ClusterNode | undefined> {
    const resolved = resolveClusterOptions(options);
    try {
      await probeRedis(resolved.redisUrl);
    } catch (err) {
      if (!resolved.optional) throw err;
      logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'Redis is unreachable; running as a single node (--redis-optional)');
      return undefined;
    }
    const node = new ClusterNode(resolved, logger);
    try {
      await node.presence.claim();
    } catch (err) {
      node.disconnect();
      throw err;
    }
    return node;
  }

  private constructor(
    private readonly options: ResolvedClusterOptions,
    private readonly logger: Logger,
  ) {
    this.nodeId = options.nodeId;
    this.keys = clusterKeys(options.keyPrefix);
    this.state = openRedis(options.redisUrl, 'state', logger);
    this.sub = openRedis(options.redisUrl, 'rpc', logger);
    this.adapterClient = openRedis(options.redisUrl, 'adapter', logger, { waitForever: true });
    this.leases = new SessionLeases(this.state, this.keys, this.nodeId, options.leaseMs, logger);
    this.index = new SharedSessionIndex(this.state, this.keys);
    const instance = randomUUID();
    this.presence = new NodePresence(this.state, this.keys, this.nodeId, instance, options.leaseMs, logger);
    this.rpc = new NodeRpc(this.state, this.sub, this.keys, this.nodeId, instance, options.requestTimeoutMs, logger);
    const streams = redisStreamsAdapter(this.adapterClient, this.keys);
    this.adapter = streams.adapter;
    this.disconnectAdapterCopies = streams.disconnectCopies;
  }

  /** Takes the leases of the sessions loaded here, publishes them, and starts renewing. */
  async start(host: ClusterHost): Promise<void> {
    this.host = host;
    this.router = new CommandRouter({
      isLocal: (id) => host.sessions.get(id) !== undefined,
      leases: this.leases,
      index: this.index,
      rpc: this.rpc,
      attachments: this.attachments,
      logger: this.logger,
      onRemoved: (sessionId) => this.sessionRemoved(sessionId),
    });
    host.io.on(SESSION_REMOVED_EVENT, (sessionId: unknown) => {
      if (typeof sessionId === 'string') this.attachments.forgetSession(sessionId);
    });
    serveForwardedCommands({
      rpc: this.rpc,
      run: host.run,
      remoteClients: this.remoteClients,
      detachEverywhere: (socketId) => this.detachEverywhere(socketId),
    });
    await this.rpc.start();
    await this.tick();
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.options.leaseMs / 3)));
    this.logger.info({ nodeId: this.nodeId, sessions: this.leases.sessionIds().length }, 'joined the cluster');
  }

  /** The cluster's shares, in Redis: every node accepts, lists and revokes every share. */
  shareStore(clock: Clock): RedisShareStore {
    return new RedisShareStore(this.state, this.keys, clock);
  }

  /** For dispatch: forwards a command about another node's session there. */
  route(name: CommandName, payload: Record<string, unknown>, ctx: CommandContext): Promise<Ack<unknown> | undefined> {
    return this.router ? this.router.route(name, payload, ctx) : Promise.resolve(undefined);
  }

  /** Every session of the cluster: this node's as they are now, the others' as last published. */
  async listSessions(): Promise<SessionInfo[]> {
    const local = this.host?.sessions.list() ?? [];
    try {
      this.lastRemote = await this.index.readAll();
    } catch (err) {
      this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'Redis unavailable; listing other nodes’ sessions as last seen');
    }
    const here = new Set(local.map((s) => s.id));
    const others = this.lastRemote.filter((s) => !here.has(s.info.id)).map((s) => s.info);
    return [...local, ...others].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** `session:list` over the whole cluster; a session created or deleted here is in (or out of) the index before the ack. */
  wrapHandlers(handlers: HandlerMap): HandlerMap {
    const create = handlers['session:create'];
    const remove = handlers['session:delete'];
    const wrapped: HandlerMap = { ...handlers, 'session:list': async () => ({ sessions: await this.listSessions() }) };
    if (create) {
      wrapped['session:create'] = (async (payload, ctx) => {
        const result = await create(payload, ctx);
        await this.adopt(result.session.id).catch((err: unknown) => this.warnOnce(err));
        return result;
      }) satisfies Handler<'session:create'>;
    }
    if (remove) {
      wrapped['session:delete'] = (async (payload, ctx) => {
        const lease = this.leases.valueOf(payload.sessionId);
        const attached =
          this.host?.sessions
            .get(payload.sessionId)
            ?.presence.list()
            .map((client) => client.id) ?? [];
        const result = await remove(payload, ctx);
        this.leases.forget(payload.sessionId);
        if (lease) await this.index.remove(payload.sessionId, lease).catch((err: unknown) => this.warnOnce(err));
        // Sockets of other nodes attached only to it are no longer clients of this node.
        for (const socketId of attached) if (!this.host?.sessions.all().some((s) => s.presence.roleOf(socketId))) this.remoteClients.remove(socketId);
        this.sessionRemoved(payload.sessionId);
        return result;
      }) satisfies Handler<'session:delete'>;
    }
    return wrapped;
  }

  /** Sessions of other nodes that sockets here are attached to, and sockets of other nodes attached to sessions here (status, tests). */
  remotePresence(): { attachedElsewhere: string[]; clientsFromElsewhere: string[] } {
    return { attachedElsewhere: this.attachments.entries().map(([sessionId]) => sessionId), clientsFromElsewhere: this.remoteClients.socketIds() };
  }

  /** Every event a session of this node broadcasts: a persisted one refreshes its index entry soon. */
  onEvent(sessionId: string, event: SessionEvent): void {
    if (event.ephemeral || this.stopped) return;
    this.toPublish.add(sessionId);
    this.publishTimer ??= setTimeout(() => void this.publishPending(), PUBLISH_DELAY_MS);
  }

  /** A socket of this node disconnected: the nodes running sessions it was attached to forget it. */
  onDisconnect(socketId: string): void {
    for (const nodeId of this.attachments.removeSocket(socketId)) {
      this.rpc.request(nodeId, DISCONNECT_METHOD, { socketId }).catch(() => undefined);
    }
  }

  /**
   * A clean stop, after the sessions closed: publishes their last state and lets the leases go,
   * so the other nodes list them `offline` at once.
   */
  async leave(): Promise<void> {
    if (this.stopped) return;
    clearInterval(this.timer);
    this.rpc.close(); // nothing waits on another node past this point
    await this.ticking;
    await this.watching;
    await this.publishPending();
    this.stopped = true;
    try {
      await this.leases.releaseAll();
      await this.presence.release();
    } catch (err) {
      this.logger.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'could not release the leases (Redis unavailable); they expire by themselves',
      );
    }
  }

  /** Closes the Redis connections (after socket.io closed its adapter). */
  disconnect(): void {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.publishTimer);
    for (const client of [this.state, this.sub, this.adapterClient]) client.disconnect();
    this.disconnectAdapterCopies();
  }

  private tick(): Promise<void> {
    this.ticking ??= this.renew().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async renew(): Promise<void> {
    const host = this.host;
    if (!host || this.stopped) return;
    try {
      await this.presence.renew();
      await Promise.all(host.sessions.all().map((session) => this.adopt(session.id)));
      const alive = await this.presence.alive([...new Set([...this.remoteClients.nodeIds(), ...this.rpc.waitingOn()])]);
      for (const socketId of this.remoteClients.dropDead(alive)) this.detachEverywhere(socketId);
      for (const nodeId of this.rpc.waitingOn()) if (!alive.has(nodeId)) this.rpc.failPendingTo(nodeId);
      // Apart from the renewal: attaching clients again waits on other nodes, the leases must not.
      this.watching ??= watchRemoteSessions({ io: host.io, index: this.index, rpc: this.rpc, attachments: this.attachments, logger: this.logger })
        .catch((err: unknown) => this.warnOnce(err))
        .finally(() => {
          this.watching = undefined;
        });
      if (!this.healthy) this.logger.info('cluster state in Redis renewed again');
      this.healthy = true;
    } catch (err) {
      this.warnOnce(err);
    }
  }

  /** Holds the session's lease (taking it if free) and publishes its entry. */
  private async adopt(sessionId: string): Promise<void> {
    if (await this.leases.hold(sessionId)) await this.publish(sessionId);
  }

  private async publish(sessionId: string): Promise<void> {
    const session = this.host?.sessions.get(sessionId);
    const lease = this.leases.valueOf(sessionId);
    if (!session || !lease) return;
    // Refused when the lease changed hands meanwhile (fencing): the next renewal sorts it out.
    await this.index.write(session.info(), this.nodeId, lease);
  }

  private async publishPending(): Promise<void> {
    clearTimeout(this.publishTimer);
    this.publishTimer = undefined;
    const ids = [...this.toPublish];
    this.toPublish.clear();
    try {
      await Promise.all(ids.map((id) => this.publish(id)));
    } catch (err) {
      this.warnOnce(err);
    }
  }

  /**
   * A session left the cluster (deleted on its node, or removed while offline): every node forgets
   * its sockets' attachments to it, and those sockets leave its room on every node.
   */
  private sessionRemoved(sessionId: string): void {
    this.attachments.forgetSession(sessionId);
    const io = this.host?.io;
    if (!io) return;
    io.in(sessionRoom(sessionId)).socketsLeave(sessionRoom(sessionId));
    io.serverSideEmit(SESSION_REMOVED_EVENT, sessionId);
  }

  private detachEverywhere(socketId: string): void {
    for (const session of this.host?.sessions.all() ?? []) session.detachClient(socketId);
  }

  private warnOnce(err: unknown): void {
    if (!this.healthy) return;
    this.healthy = false;
    this.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'cannot renew the cluster state in Redis; retrying');
  }
}
