import type { Server as IoServer, Socket } from 'socket.io';
import { startTimer, type Clock } from '@tandem/ai';
import { SHARE_ENDED_EVENT, type ShareEnded } from '@tandem/shared';
import type { ClientIdentity } from '../auth.js';

/** The socket.io room every socket using one share is in, on every node. */
export function shareRoom(shareId: string): string {
  return `share:${shareId}`;
}

/** setTimeout's longest delay is ~24.8 days: a longer wait is taken in steps. */
const LONGEST_TIMER_MS = 6 * 60 * 60 * 1000;

/**
 * The sockets using shares: each joins its share's room (so a revocation reaches it on any node
 * of a cluster through socket.io's adapter) and is closed by this node when its share expires.
 */
export class ShareSockets {
  constructor(
    private readonly io: IoServer,
    private readonly clock: Clock,
  ) {}

  /** A socket authenticated with a share: in its room, and closed at the share's expiry. */
  track(socket: Socket): void {
    const share = (socket.data as ClientIdentity).share;
    if (!share) return;
    void socket.join(shareRoom(share.id));
    const expiresAt = Date.parse(share.expiresAt);
    let stop = () => {};
    const arm = () => {
      const left = expiresAt - this.clock.now();
      if (left <= 0) return end(socket, { shareId: share.id, reason: 'expired' });
      stop = startTimer(this.clock, Math.min(left, LONGEST_TIMER_MS), arm);
    };
    arm();
    socket.once('disconnect', () => stop());
  }

  /** Tells every socket using the share (every node) why, then closes them. */
  endEverywhere(ended: ShareEnded): void {
    const room = shareRoom(ended.shareId);
    this.io.to(room).emit(SHARE_ENDED_EVENT, ended);
    this.io.in(room).disconnectSockets(true);
  }

  /** Sockets using each of these shares now, over every node. */
  async connectedCounts(shareIds: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (shareIds.length === 0) return counts;
    const sockets = await this.io.in(shareIds.map(shareRoom)).fetchSockets();
    for (const socket of sockets) {
      const id = (socket.data as ClientIdentity | undefined)?.share?.id;
      if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }
}

function end(socket: Socket, ended: ShareEnded): void {
  socket.emit(SHARE_ENDED_EVENT, ended);
  socket.disconnect(true);
}
