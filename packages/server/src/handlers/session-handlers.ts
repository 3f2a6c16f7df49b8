import { SESSION_EVENT, type SessionEvent } from '@tandem/shared';
import { mayDrive } from '../auth.js';
import type { SessionLog } from '../sessions/session-log.js';
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

    'session:attach': async ({ sessionId, role, afterSeq, tail }, { socket, client, afterAck }) => {
      const session = sessions.require(sessionId);
      if (role === 'driver' && !mayDrive(client)) {
        throw new CommandError(
          'forbidden',
          client.share
            ? `attaching as driver needs a driver share; this ${client.share.role} share attaches as viewer`
            : 'attaching as driver needs the control token; this connection uses the view token, attach as viewer',
        );
      }
      // A tail (one screen) for a first attach; a reconnect's afterSeq replays all it missed.
      const page = tail !== undefined && !afterSeq ? await tailPage(session.log, tail) : undefined;
      const replay = page ? page.events : await session.log.after(afterSeq ?? 0);
      // Synchronous from here to the ack: whatever was appended during the read is added now.
      const lastReplayed = replay.length > 0 ? replay[replay.length - 1]!.seq : (afterSeq ?? 0);
      replay.push(...session.log.tailAfter(lastReplayed));
      const sentUpTo = replay.length > 0 ? replay[replay.length - 1]!.seq : lastReplayed;
      afterAck(() => {
        // Events appended between the ack's creation and now go out before anything live.
        for (const event of session.log.tailAfter(sentUpTo)) socket.emit(SESSION_EVENT, event);
        for (const partial of session.partialTextEvents()) socket.emit(SESSION_EVENT, partial);
        void socket.join(sessionRoom(sessionId));
        session.attachClient(socket.id, client.name, role, client.share?.role);
      });
      if (!page) return { session: session.info(), events: replay };
      return { session: session.info(), events: replay, hasMore: page.hasMore, ...(page.firstSeq !== undefined ? { firstSeq: page.firstSeq } : {}) };
    },

    'session:history': async ({ sessionId, beforeSeq, limit }) => {
      const { log } = sessions.require(sessionId);
      const events = await log.before(beforeSeq, limit);
      const firstSeq = events[0]?.seq;
      return firstSeq === undefined ? { events, hasMore: false } : { events, hasMore: log.hasBefore(firstSeq), firstSeq };
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

/** The last `count` events, after the older events still in effect (the open turn's start, unanswered questions …). */
async function tailPage(log: SessionLog, count: number): Promise<{ events: SessionEvent[]; hasMore: boolean; firstSeq?: number }> {
  const events = await log.last(count);
  const firstSeq = events[0]?.seq;
  if (firstSeq === undefined) return { events, hasMore: false };
  return { events: [...log.inEffectBefore(firstSeq), ...events], hasMore: log.hasBefore(firstSeq), firstSeq };
}
