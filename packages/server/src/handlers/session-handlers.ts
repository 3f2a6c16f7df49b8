import { SESSION_EVENT } from '@tandem/shared';
import type { SessionManager } from '../sessions/session-manager.js';
import { clearConversation } from '../sessions/session-settings.js';
import { CommandError } from './command-error.js';
import type { HandlerMap } from './dispatch.js';

export function sessionRoom(sessionId: string): string {
  return `session:${sessionId}`;
}

/** session:list, session:create, session:attach, session:detach, session:configure, session:clear, session:delete. */
export function sessionHandlers(sessions: SessionManager): HandlerMap {
  return {
    'session:list': () => ({ sessions: sessions.list() }),

    'session:create': async (payload) => {
      const session = await sessions.create(payload);
      return { session: session.info() };
    },

    'session:attach': async ({ sessionId, role, afterSeq }, { socket, client, afterAck }) => {
      const session = sessions.require(sessionId);
      if (role === 'driver' && client.tokenKind !== 'control') {
        throw new CommandError('forbidden', 'attaching as driver needs the control token; this connection uses the view token, attach as viewer');
      }
      const replay = await session.log.after(afterSeq ?? 0);
      // Synchronous from here to the ack: whatever was appended during the read is added now.
      const lastReplayed = replay.length > 0 ? replay[replay.length - 1]!.seq : (afterSeq ?? 0);
      replay.push(...session.log.tailAfter(lastReplayed));
      const sentUpTo = replay.length > 0 ? replay[replay.length - 1]!.seq : lastReplayed;
      afterAck(() => {
        // Events appended between the ack's creation and now go out before anything live.
        for (const event of session.log.tailAfter(sentUpTo)) socket.emit(SESSION_EVENT, event);
        const partial = session.partialTextEvent();
        if (partial) socket.emit(SESSION_EVENT, partial);
        void socket.join(sessionRoom(sessionId));
        session.attachClient(socket.id, client.name, role);
      });
      return { session: session.info(), events: replay };
    },

    'session:configure': async ({ sessionId, model, mode, title, searchOnly }, { client }) => {
      const session = await sessions.configure(sessionId, { model, mode, title, searchOnly }, client.name);
      return { session: session.info() };
    },

    'session:clear': async ({ sessionId }, { client }) => {
      await clearConversation(sessions.require(sessionId), client.name);
      return {};
    },

    'session:delete': async ({ sessionId }) => {
      await sessions.delete(sessionId);
      return {};
    },

    'session:detach': ({ sessionId }, { socket }) => {
      const session = sessions.require(sessionId);
      void socket.leave(sessionRoom(sessionId));
      session.detachClient(socket.id);
      return {};
    },
  };
}
