/**
 * On the owning node: the sockets attached to its sessions through other nodes, by node, so
 * their presence can be dropped when their node disconnects them or dies.
 */
export class RemoteClients {
  private readonly nodeOf = new Map<string, string>();

  add(socketId: string, nodeId: string): void {
    this.nodeOf.set(socketId, nodeId);
  }

  remove(socketId: string): void {
    this.nodeOf.delete(socketId);
  }

  nodeIds(): string[] {
    return [...new Set(this.nodeOf.values())];
  }

  /** Forgets and returns the sockets of nodes not in `alive`. */
  dropDead(alive: Set<string>): string[] {
    const dead = [...this.nodeOf].filter(([, nodeId]) => !alive.has(nodeId)).map(([socketId]) => socketId);
    for (const socketId of dead) this.nodeOf.delete(socketId);
    return dead;
  }
}
