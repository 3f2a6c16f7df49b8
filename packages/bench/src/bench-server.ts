import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { createApplication, type ApplicationSeams } from '@tandem/server';
import { PROTOCOL_VERSION, SESSION_EVENT, type Ack, type SessionEvent } from '@tandem/shared';

export interface BenchServer {
  url: string;
  token: string;
  connect(name: string): Promise<Socket>;
  close(): Promise<void>;
}

/**
 * A real Tandem server on port 0 with a throwaway data dir; `env` for providers, the rest replaces
 * parts. `dataDir`: use this one instead (kept on close, for a server restarted on the same data).
 * `config`: written as the data dir's config.json before the server starts.
 */
export async function startBenchServer(
  options: ApplicationSeams & { env?: NodeJS.ProcessEnv; dataDir?: string; config?: Record<string, unknown> },
): Promise<BenchServer> {
  const { env, dataDir: given, config, ...seams } = options;
  const dataDir = given ?? (await mkdtemp(join(tmpdir(), 'tandem-bench-')));
  if (config) await writeFile(join(dataDir, 'config.json'), JSON.stringify(config));
  const token = 'bench-control-token';
  const app = await createApplication({ dataDir, tokens: { control: token, view: 'bench-view-token' }, ...(env ? { env } : {}), seams });
  const { url } = await app.listen(0);
  const sockets: Socket[] = [];
  return {
    url,
    token,
    async connect(name) {
      const socket = io(url, { auth: { token, name, protocolVersion: PROTOCOL_VERSION }, transports: ['websocket'], forceNew: true });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      return socket;
    },
    async close() {
      for (const s of sockets) s.disconnect();
      await app.close();
      if (!given) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function request<T>(socket: Socket, event: string, payload: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    socket.timeout(30_000).emit(event, payload, (err: Error | null, ack: Ack<T>) => {
      if (err) return reject(err);
      if (!ack.ok) return reject(new Error(`${event}: ${ack.error.code}: ${ack.error.message}`));
      resolve(ack.data);
    });
  });
}

/** Resolves with the first event of `type` (and a predicate) on the socket. */
export function waitForEvent(socket: Socket, type: SessionEvent['type'], timeoutMs = 120_000): Promise<SessionEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${type}`)), timeoutMs);
    const onEvent = (event: SessionEvent) => {
      if (event.type !== type) return;
      clearTimeout(timer);
      socket.off(SESSION_EVENT, onEvent);
      resolve(event);
    };
    socket.on(SESSION_EVENT, onEvent);
  });
}
