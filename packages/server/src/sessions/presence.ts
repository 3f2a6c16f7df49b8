import type { ClientInfo, Role } from '@tandem/shared';

/** Who is attached to one session, keyed by socket id, in attach order. */
export class Presence {
  private readonly clients = new Map<string, ClientInfo>();

  attach(socketId: string, name: string, role: Role): void {
    this.clients.set(socketId, { id: socketId, name, role });
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
