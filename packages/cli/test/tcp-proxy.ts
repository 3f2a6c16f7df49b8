import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy a test can cut: `cut()` drops every open connection and refuses new
 * ones (the client sees the network go away), `resume()` lets connections through again.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private blocked = false;
  port = 0;

  constructor(private readonly targetPort: number) {
    this.server = createServer((inbound) => {
      if (this.blocked) {
        inbound.destroy();
        return;
      }
      const outbound = connect(this.targetPort, '127.0.0.1');
      for (const [from, to] of [
        [inbound, outbound],
        [outbound, inbound],
      ] as const) {
        this.sockets.add(from);
        from.pipe(to);
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
      }
    });
  }

  listen(): Promise<string> {
    return new Promise((resolve) => {
      this.server.listen(0, '127.0.0.1', () => {
        const address = this.server.address();
        this.port = typeof address === 'object' && address ? address.port : 0;
        resolve(`http://127.0.0.1:${this.port}`);
      });
    });
  }

  cut(): void {
    this.blocked = true;
    for (const socket of this.sockets) socket.destroy();
  }

  resume(): void {
    this.blocked = false;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
