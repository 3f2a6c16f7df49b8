import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, SESSION_EVENT, type Ack, type SessionEvent } from '@tandem/shared';
import { procStats } from './proc-stats.js';
import { BENCH_TOKEN, type ServeProcess } from './serve-process.js';

export interface RunFigures {
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  iterations: number;
  /** send → turn_done on the monotonic clock (µs), which V8 CPU profiles also use. */
  windowUs?: [number, number];
}

function request<T>(socket: Socket, event: string, payload: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    socket.timeout(60_000).emit(event, payload, (err: Error | null, ack: Ack<T>) => {
      if (err) return reject(err);
      if (!ack.ok) return reject(new Error(`${event}: ${ack.error.code}: ${ack.error.message}`));
      resolve(ack.data);
    });
  });
}

/**
 * One attached client (socket.io, websocket) drives one turn of the server: create a session in
 * the workspace, attach as driver, send, wait for turn_done. Wall time and the server's CPU
 * time cover send → turn_done; peak RSS is the server's high-water mark after the turn.
 */
export async function driveOneTurn(server: ServeProcess, expectedIterations: number): Promise<RunFigures> {
  const socket = io(server.url, { auth: { token: BENCH_TOKEN, name: 'bench', protocolVersion: PROTOCOL_VERSION }, transports: ['websocket'], forceNew: true });
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const { session } = await request<{ session: { id: string } }>(socket, 'session:create', { title: 'bench', cwd: server.workspace });
    await request(socket, 'session:attach', { sessionId: session.id, role: 'driver' });
    const done = new Promise<SessionEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no turn_done within 10 minutes')), 600_000);
      socket.on(SESSION_EVENT, (event: SessionEvent) => {
        if (event.type === 'permission_request') reject(new Error(`the bench tool asked for permission: ${JSON.stringify(event)}`));
        if (event.type !== 'turn_done') return;
        clearTimeout(timer);
        resolve(event);
      });
    });
    const before = await procStats(server.pid);
    const startUs = Number(process.hrtime.bigint() / 1000n);
    const started = performance.now();
    await request(socket, 'session:send', { sessionId: session.id, text: 'go' });
    const end = await done;
    const ms = performance.now() - started;
    const endUs = Number(process.hrtime.bigint() / 1000n);
    const after = await procStats(server.pid);
    const iterations = end.type === 'turn_done' ? end.iterations : 0;
    if (iterations < expectedIterations)
      throw new Error(`turn ended after ${iterations} of ${expectedIterations} iterations (${end.type === 'turn_done' ? end.outcome : '?'})`);
    return { ms, cpuMs: after.cpuMs - before.cpuMs, peakRssMb: after.peakRssMb, iterations, windowUs: [startUs, endUs] };
  } finally {
    socket.disconnect();
  }
}
