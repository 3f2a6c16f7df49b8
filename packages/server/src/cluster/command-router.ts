import { ackError, Commands, type Ack, type CommandName, type Role } from '@tandem/shared';
import { SESSION_EVENT } from '@tandem/shared';
import type { Logger } from 'pino';
import type { CommandContext } from '../handlers/dispatch.js';
import { sessionRoom } from '../handlers/session-handlers.js';
import { FORWARD_METHOD, type ForwardedCommand, type ForwardedReply } from './forwarded-commands.js';
import { RpcError, type NodeRpc } from './node-rpc.js';
import type { RemoteAttachments } from './remote-attachments.js';
import type { SessionLeases } from './session-lease.js';
import type { SharedSessionIndex } from './shared-session-index.js';

export interface CommandRouterDeps {
  /** True when the session runs on this node. */
  isLocal(sessionId: string): boolean;
  leases: SessionLeases;
  index: SharedSessionIndex;
  rpc: NodeRpc;
  attachments: RemoteAttachments;
  logger: Logger;
  /** A session left the cluster (an offline one removed here): every node forgets its clients of it. */
  onRemoved(sessionId: string): void;
}

/**
 * Sends a command about a session of another node to that node and brings its ack back. On
 * `session:attach` the socket joins the session's room here first, so every event the owner
 * broadcasts after it read the replay reaches the socket through socket.io's adapter (one that
 * was in flight may come twice: clients skip a seq they have); then the owner's replay comes
 * in the ack.
 */
export class CommandRouter {
  constructor(private readonly deps: CommandRouterDeps) {}

  async route(name: CommandName, payload: Record<string, unknown>, ctx: CommandContext): Promise<Ack<unknown> | undefined> {
    const sessionId = payload.sessionId;
    if (typeof sessionId !== 'string') return undefined;
    if (this.deps.isLocal(sessionId)) {
      if (this.deps.leases.isLost(sessionId) && Commands[name].access === 'driver') {
        return ackError('conflict', `session ${sessionId}: this node lost its lease to another process; it cannot be driven here`);
      }
      return undefined;
    }
    let found: Awaited<ReturnType<SharedSessionIndex['find']>>;
    try {
      found = await this.deps.index.find(sessionId);
    } catch (err) {
      return ackError('internal', `cannot look session ${sessionId} up in the cluster: Redis is unavailable (${errorText(err)}); try again`);
    }
    if (!found) return undefined; // neither here nor in the cluster: the local handler answers not_found
    const { socket } = ctx;
    if (name === 'session:detach') {
      void socket.leave(sessionRoom(sessionId));
      this.deps.attachments.remove(sessionId, socket.id);
      if (!found.online) return { ok: true, data: {} };
    }
    if (name === 'session:delete' && !found.online) return this.removeOffline(sessionId, found.nodeId);
    if (!found.online) {
      return ackError('conflict', `session ${sessionId} is offline: its node ${found.nodeId} is gone; it is back (with its history) when that node restarts`);
    }
    const attaching = name === 'session:attach';
    if (attaching) await socket.join(sessionRoom(sessionId));
    let result: ForwardedReply;
    try {
      const request: ForwardedCommand = { name, payload, socketId: socket.id, client: ctx.client };
      result = (await this.deps.rpc.request(found.nodeId, FORWARD_METHOD, request)) as ForwardedReply;
    } catch (err) {
      if (attaching) void socket.leave(sessionRoom(sessionId));
      this.deps.logger.warn({ err: errorText(err), sessionId, command: name, owner: found.nodeId }, 'a forwarded command failed');
      if (err instanceof RpcError && err.reason === 'unreachable') {
        return ackError('conflict', `session ${sessionId} runs on node ${found.nodeId}, which cannot be reached: ${err.message}`);
      }
      return ackError('internal', `${name} failed on node ${found.nodeId}: ${errorText(err)}`);
    }
    if (attaching) {
      if (!result.reply.ok) void socket.leave(sessionRoom(sessionId));
      else this.deps.attachments.add(sessionId, socket.id, payload.role as Role, found.nodeId, found.info.lastSeq);
    }
    if (result.emitted.length > 0) {
      ctx.afterAck(() => {
        for (const event of result.emitted) socket.emit(SESSION_EVENT, event);
      });
    }
    return result.reply;
  }

  /**
   * `session:delete` of a session whose node is gone: its entry leaves the shared index (checked
   * against its lease in the same step: refused when a node holds it again). Its log and data
   * stay in that node's data directory, untouched; if that node ever starts again, the session
   * is listed again.
   */
  private async removeOffline(sessionId: string, nodeId: string): Promise<Ack<unknown>> {
    let result: Awaited<ReturnType<SharedSessionIndex['removeOffline']>>;
    try {
      result = await this.deps.index.removeOffline(sessionId);
    } catch (err) {
      return ackError('internal', `cannot remove session ${sessionId} from the cluster: Redis is unavailable (${errorText(err)}); try again`);
    }
    if (!result.removed) {
      return ackError(
        'conflict',
        `session ${sessionId} is not offline any more: node ${result.holder} holds its lease (it is back); deleting it again deletes it on that node`,
      );
    }
    this.deps.logger.info({ sessionId, nodeId }, "removed an offline session from the cluster's index; its data on its node is not touched");
    this.deps.onRemoved(sessionId);
    return { ok: true, data: {} };
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
