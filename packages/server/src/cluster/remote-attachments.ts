import type { Role } from '@tandem/shared';

/** A session of another node that sockets of this node are attached to. */
export interface RemoteAttachment {
  /** The node that ran it when last seen. */
  ownerNode: string;
  /** The last persisted seq this node knows of (from the shared index). */
  lastSeq: number;
  /** Its lease is gone: the clients were told; they are attached again when it is back. */
  offline: boolean;
  /** socket id → role, the sockets of this node attached to it. */
  sockets: Map<string, Role>;
}

/** On a node: which of its sockets are attached to sessions that run on other nodes. */
export class RemoteAttachments {
  private readonly sessions = new Map<string, RemoteAttachment>();

  add(sessionId: string, socketId: string, role: Role, ownerNode: string, lastSeq: number): void {
    const known = this.sessions.get(sessionId);
    if (known) {
      known.sockets.set(socketId, role);
      known.ownerNode = ownerNode;
      known.lastSeq = Math.max(known.lastSeq, lastSeq);
      return;
    }
    this.sessions.set(sessionId, { ownerNode, lastSeq, offline: false, sockets: new Map([[socketId, role]]) });
  }

  remove(sessionId: string, socketId: string): void {
    const known = this.sessions.get(sessionId);
    if (!known) return;
    known.sockets.delete(socketId);
    if (known.sockets.size === 0) this.sessions.delete(sessionId);
  }

  /** Forgets every socket attached to the session (it was deleted). */
  forgetSession(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /** Forgets the socket everywhere; returns the nodes that had it attached. */
  removeSocket(socketId: string): string[] {
    const nodes = new Set<string>();
    for (const [sessionId, known] of [...this.sessions]) {
      if (!known.sockets.has(socketId)) continue;
      nodes.add(known.ownerNode);
      this.remove(sessionId, socketId);
    }
    return [...nodes];
  }

  entries(): Array<[string, RemoteAttachment]> {
    return [...this.sessions];
  }

  get size(): number {
    return this.sessions.size;
  }
}
