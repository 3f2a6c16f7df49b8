import type { ClientInfo, Role, ShareRole } from '@tandem/shared';

/** Who is attached to one session, keyed by socket id, in attach order. */
export class Presence {
  private readonly clients = new Map<string, ClientInfo>();

  /** `shareRole`: the client came in with a share of that role. */
  attach(socketId: string, name: string, role: Role, shareRole?: ShareRole): void {
    this.clients.set(socketId, { id: socketId, name, role, ...(shareRole ? { shareRole } : {}) });
  }

  /** True when the socket was attached. */
  detach(socketId: string): boolean {
    return this.clients.delete(socketId);
  }

  roleOf(socketId: string): Role | undefined {
    return this.clients.get(socketId)?.role;
  }

  nameOf(socketId: string): string | undefined {
    return this.clients.get(socketId)?.name;
  }

  list(): ClientInfo[] {
    return [...this.clients.values()];
  }

  get size(): number {
    return this.clients.size;
  }
}
