import type { Socket } from 'socket.io';
import { SESSION_EVENT, type SessionEvent } from '@tandem/shared';
import type { ClientIdentity } from '../auth.js';

/**
 * What a handler on the owning node sees of a socket connected to another node: its id and
 * identity; the session events a handler emits to it are collected (and sent back with the
 * reply); joining and leaving rooms happen on the socket's own node.
 */
export function remoteSocket(socketId: string, client: ClientIdentity, emitted: SessionEvent[]): Socket {
  const stand = {
    id: socketId,
    data: client,
    emit(name: string, event: SessionEvent) {
      if (name === SESSION_EVENT) emitted.push(event);
      return true;
    },
    join: () => undefined,
    leave: () => undefined,
  };
  return stand as unknown as Socket;
}
