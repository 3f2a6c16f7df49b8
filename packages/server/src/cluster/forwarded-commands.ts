import { ackError, Commands, type Ack, type CommandName, type SessionEvent } from '@tandem/shared';
import type { Socket } from 'socket.io';
import type { ClientIdentity } from '../auth.js';
import type { NodeRpc } from './node-rpc.js';
import type { RemoteClients } from './remote-clients.js';
import { remoteSocket } from './remote-socket.js';

/** A command a client sent to another node, about a session that runs here. */
export interface ForwardedCommand {
  name: CommandName;
  payload: unknown;
  socketId: string;
  client: ClientIdentity;
}

/** The ack for the client, and the session events the handler sent its socket after the ack. */
export interface ForwardedReply {
  reply: Ack<unknown>;
  emitted: SessionEvent[];
}

export const FORWARD_METHOD = 'command';
export const DISCONNECT_METHOD = 'disconnect';

export interface ForwardedCommandDeps {
  rpc: NodeRpc;
  /** Runs a command with every check, as `socket` (dispatch's answerCommand). */
  run(name: CommandName, payload: unknown, socket: Socket): Promise<Ack<unknown>>;
  remoteClients: RemoteClients;
  /** A socket of another node is gone: it leaves every session here. */
  detachEverywhere(socketId: string): void;
}

/**
 * The owning node's side of forwarding: runs the command as the remote socket (the same
 * handlers, the same driver checks against the session's presence) and answers with the ack.
 */
export function serveForwardedCommands(deps: ForwardedCommandDeps): void {
  deps.rpc.handle(FORWARD_METHOD, async (params, from): Promise<ForwardedReply> => {
    const { name, payload, socketId, client } = params as ForwardedCommand;
    if (!Object.hasOwn(Commands, name)) return { reply: ackError('bad_request', `unknown command ${String(name)}`), emitted: [] };
    const emitted: SessionEvent[] = [];
    const reply = await deps.run(name, payload, remoteSocket(socketId, client, emitted));
    if (reply.ok && name === 'session:attach') deps.remoteClients.add(socketId, from);
    return { reply, emitted };
  });
  deps.rpc.handle(DISCONNECT_METHOD, async (params) => {
    const { socketId } = params as { socketId: string };
    deps.detachEverywhere(socketId);
    deps.remoteClients.remove(socketId);
    return {};
  });
}
