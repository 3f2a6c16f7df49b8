import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import type { AnyTool, ExternalRunContext } from '@tandem/core';
import { BridgeRun } from './bridge-run.js';

/** The variable that tells an external agent (and `tandem bridge`) where its bridge is: `SOCKET#TOKEN`. */
export const BRIDGE_VARIABLE = 'TANDEM_BRIDGE';
/** A connection must say its token within `helloTimeoutMs`, in at most `maxHelloBytes`; at most `connections` are open at once. */
const LIMITS = { helloTimeoutMs: 10_000, maxHelloBytes: 4096, connections: 8 } as const;

export interface BridgeHostOptions {
  /** Where the sockets are made (see bridge-dir.ts). */
  dir: string;
  /** `connector_call` as the pipeline runs it. */
  connector: AnyTool;
  version: string;
  logger: Logger;
}

/**
 * The reverse bridge (ARCHITECTURE "…the reverse bridge…"): for each run of an external agent,
 * a Unix socket of its own (no network port) and a token made for that run alone, both in
 * `TANDEM_BRIDGE`. A connection first sends `{"token":"…"}` and a newline; with the right token
 * it is answered `{"ok":true}` and then speaks MCP (newline-delimited JSON-RPC, as over stdio)
 * with the run's bridge server; otherwise `{"ok":false,"error":…}` and closed. When the run ends
 * the token stops working, every connection is closed and the socket is removed.
 */
export class BridgeHost {
  constructor(private readonly options: BridgeHostOptions) {}

  async open(context: ExternalRunContext): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
    const socketPath = path.join(this.options.dir, `${randomBytes(12).toString('hex')}.sock`);
    const token = randomBytes(32).toString('hex');
    const expected = digest(token);
    const run = new BridgeRun(context, this.options.connector);
    const sockets = new Set<Socket>();
    let open = true;
    const server: Server = createServer((socket) => {
      if (!open || sockets.size >= LIMITS.connections) {
        refuse(socket, open ? 'too many connections to this bridge' : 'this run has ended; its bridge is closed');
        return;
      }
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      this.greet(socket, expected, () => open, run);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => {
        server.off('error', reject);
        resolve();
      });
    });
    chmodSync(socketPath, 0o600);
    this.options.logger.info({ agent: context.agent, socket: socketPath }, 'bridge opened for an external agent run');
    return {
      env: { [BRIDGE_VARIABLE]: `${socketPath}#${token}` },
      close: async () => {
        open = false;
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        rmSync(socketPath, { force: true });
      },
    };
  }

  /** Reads the first line (the token); with the right one, hands the connection to a bridge MCP server. */
  private greet(socket: Socket, expected: Buffer, isOpen: () => boolean, run: BridgeRun): void {
    let buffered = Buffer.alloc(0);
    const timer = setTimeout(() => refuse(socket, 'no token was sent'), LIMITS.helloTimeoutMs);
    timer.unref();
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(0x0a);
      if (newline === -1) {
        if (buffered.length > LIMITS.maxHelloBytes) finish(() => refuse(socket, 'the first line must be {"token":"…"}'));
        return;
      }
      const line = buffered.subarray(0, newline).toString('utf8');
      const rest = buffered.subarray(newline + 1);
      finish(() => {
        const token = tokenOf(line);
        if (!isOpen()) refuse(socket, 'this run has ended; its bridge is closed');
        else if (token === undefined || !timingSafeEqual(digest(token), expected)) refuse(socket, 'wrong token for this bridge');
        else void this.serve(socket, rest, run);
      });
    };
    const finish = (then: () => void) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.pause();
      then();
    };
    socket.on('data', onData);
  }

  private async serve(socket: Socket, rest: Buffer, run: BridgeRun): Promise<void> {
    socket.write('{"ok":true}\n');
    if (rest.length > 0) socket.unshift(rest);
    try {
      // The MCP SDK's server side (and its schema validator) is loaded by the first bridge
      // connection, not by every server's start: most servers never run an external agent.
      const [{ bridgeMcpServer }, { StdioServerTransport }] = await Promise.all([
        import('./bridge-mcp-server.js'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
      ]);
      if (socket.destroyed) return; // it went away while the SDK loaded
      const server = bridgeMcpServer(run, this.options.version);
      const transport = new StdioServerTransport(socket, socket);
      socket.once('close', () => void server.close().catch(() => undefined));
      await server.connect(transport);
      socket.resume();
    } catch (err) {
      this.options.logger.warn({ err, agent: run.agent }, 'a bridge connection failed to start');
      socket.destroy();
    }
  }
}

function refuse(socket: Socket, error: string): void {
  socket.end(`${JSON.stringify({ ok: false, error })}\n`);
}

function tokenOf(line: string): string | undefined {
  try {
    const value = JSON.parse(line) as { token?: unknown };
    return typeof value.token === 'string' ? value.token : undefined;
  } catch {
    return undefined;
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
