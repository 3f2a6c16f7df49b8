import type { RpcSender } from './node-rpc.js';

/**
 * On the owning node: the sockets attached to its sessions through other nodes, by node and
 * process, so their presence can be dropped when their node disconnects them, dies, or was
 * restarted (a new process under the same id has none of the old one's sockets).
 */
export class RemoteClients {
  private readonly nodeOf = new Map<string, RpcSender>();

  add(socketId: string, sender: RpcSender): void {
    this.nodeOf.set(socketId, sender);
  }

  remove(socketId: string): void {
    this.nodeOf.delete(socketId);
  }

  /** The sockets of other nodes attached to sessions here. */
  socketIds(): string[] {
    return [...this.nodeOf.keys()];
  }

  nodeIds(): string[] {
    return [...new Set([...this.nodeOf.values()].map((sender) => sender.nodeId))];
  }

  /** Forgets and returns the sockets whose process is not the one `alive` (node id → process) names. */
  dropDead(alive: Map<string, string>): string[] {
    const dead = [...this.nodeOf].filter(([, sender]) => alive.get(sender.nodeId) !== sender.instance).map(([socketId]) => socketId);
    for (const socketId of dead) this.nodeOf.delete(socketId);
    return dead;
  }
}
