import type { Server as IoServer } from 'socket.io';
import { SESSION_EVENT, type SessionEvent } from '@tandem/shared';
import type { Logger } from 'pino';
import type { ClientIdentity } from '../auth.js';
import { sessionRoom } from '../handlers/session-handlers.js';
import { FORWARD_METHOD, type ForwardedCommand, type ForwardedReply } from './forwarded-commands.js';
import type { NodeRpc } from './node-rpc.js';
import type { RemoteAttachments } from './remote-attachments.js';
import type { SharedSessionIndex } from './shared-session-index.js';

/** `code` of the ephemeral `agent_error` a client gets when the node running its session is gone. */
export const NODE_OFFLINE_CODE = 'node_offline';

export interface OfflineWatchDeps {
  io: IoServer;
  index: SharedSessionIndex;
  rpc: NodeRpc;
  attachments: RemoteAttachments;
  logger: Logger;
}

/**
 * Checked at every lease renewal, for the sessions of other nodes that sockets here are attached
 * to: when a session's lease is gone, its clients here are told (an ephemeral `agent_error`,
 * code `node_offline`); when a node holds it again (its node restarted), they are attached to
 * it again and get what they missed.
 */
export async function watchRemoteSessions(deps: OfflineWatchDeps): Promise<void> {
  for (const [sessionId, attachment] of deps.attachments.entries()) {
    const found = await deps.index.find(sessionId);
    if (!found) continue; // deleted: its owner made the sockets leave the room
    if (!found.online) {
      if (attachment.offline) continue;
      attachment.offline = true;
      attachment.lastSeq = Math.max(attachment.lastSeq, found.info.lastSeq);
      deps.logger.warn({ sessionId, nodeId: found.nodeId }, 'the node running a session went away; its clients here are told');
      const notice = {
        sessionId,
        seq: attachment.lastSeq,
        ts: new Date().toISOString(),
        ephemeral: true,
        type: 'agent_error',
        code: NODE_OFFLINE_CODE,
        message: `session offline: its node ${found.nodeId} stopped answering; it comes back (with its history) when that node restarts`,
      } as SessionEvent;
      deps.io.local.to(sessionRoom(sessionId)).emit(SESSION_EVENT, notice);
      continue;
    }
    if (!attachment.offline) {
      attachment.lastSeq = Math.max(attachment.lastSeq, found.info.lastSeq);
      continue;
    }
    attachment.ownerNode = found.nodeId;
    let all = true;
    for (const [socketId, role] of [...attachment.sockets]) {
      all = (await reattach(deps, sessionId, socketId, role, found.nodeId, attachment.lastSeq)) && all;
    }
    if (all) {
      attachment.offline = false;
      deps.logger.info({ sessionId, nodeId: found.nodeId }, 'a session is back; its clients here are attached again');
    }
  }
}

async function reattach(
  deps: OfflineWatchDeps,
  sessionId: string,
  socketId: string,
  role: 'driver' | 'viewer',
  nodeId: string,
  afterSeq: number,
): Promise<boolean> {
  const socket = deps.io.of('/').sockets.get(socketId);
  if (!socket) {
    deps.attachments.remove(sessionId, socketId);
    return true;
  }
  const request: ForwardedCommand = {
    name: 'session:attach',
    payload: { sessionId, role, afterSeq },
    socketId,
    client: socket.data as ClientIdentity,
  };
  try {
    const { reply, emitted } = (await deps.rpc.request(nodeId, FORWARD_METHOD, request)) as ForwardedReply;
    if (!reply.ok) {
      deps.logger.warn({ sessionId, socketId, error: reply.error }, 'attaching a client again after its session came back failed');
      return false;
    }
    const { events } = reply.data as { events: SessionEvent[] };
    for (const event of [...events, ...emitted]) socket.emit(SESSION_EVENT, event);
    return true;
  } catch (err) {
    deps.logger.warn({ sessionId, socketId, err: err instanceof Error ? err.message : String(err) }, 'attaching a client again failed; retrying');
    return false;
  }
}
