import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as IoServer } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { coalesceFlushedFrames, websocketTcp } from './frame-coalescing.js';

const BURSTS = 40;
const PER_BURST = 5;

let cleanup: (() => Promise<void>) | undefined;

afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A socket.io server with coalescing, one websocket client, and what the server saw of each flush. */
async function start(): Promise<{ io: IoServer; client: ClientSocket; corkedDuringFlush: number[] }> {
  const http = createServer();
  const io = new IoServer(http, { serveClient: false });
  coalesceFlushedFrames(io);
  // Registered after coalesceFlushedFrames, so it runs after it, inside the same flush.
  const corkedDuringFlush: number[] = [];
  io.engine.on('flush', (socket: Parameters<typeof websocketTcp>[0], packets: readonly unknown[]) => {
    if (packets.length >= 2) corkedDuringFlush.push(websocketTcp(socket)?.writableCorked ?? -1);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const client = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', resolve);
    client.once('connect_error', reject);
  });
  cleanup = async () => {
    client.disconnect();
    await new Promise((resolve) => io.close(resolve));
  };
  return { io, client, corkedDuringFlush };
}

describe('frame coalescing (one TCP write per engine.io flush)', () => {
  it('corks the TCP socket through a flush of several frames and uncorks it after; every frame arrives, in order', async () => {
    const { io, client, corkedDuringFlush } = await start();
    const received: number[] = [];
    const all = new Promise<void>((resolve) => {
      client.on('n', (n: number) => {
        received.push(n);
        if (received.length === BURSTS * PER_BURST) resolve();
      });
    });
    const [server] = await io.fetchSockets();
    const socket = io.sockets.sockets.get(server!.id)!;
    // Bursts of frames in one tick each, a tick apart: the first of a burst goes out alone, the
    // rest wait for its write and leave in one flush.
    for (let b = 0; b < BURSTS; b++) {
      for (let i = 0; i < PER_BURST; i++) socket.emit('n', b * PER_BURST + i);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await all;
    expect(received).toEqual(Array.from({ length: BURSTS * PER_BURST }, (_, i) => i));
    expect(corkedDuringFlush.length).toBeGreaterThan(0);
    expect(corkedDuringFlush.every((n) => n === 1)).toBe(true);
    expect(websocketTcp(socket.conn as Parameters<typeof websocketTcp>[0])?.writableCorked).toBe(0);
  });

  it('a client gone in the middle of a burst breaks nothing for the others', async () => {
    const { io, client } = await start();
    const other = connect(`http://127.0.0.1:${(io.httpServer.address() as AddressInfo).port}`, { transports: ['websocket'], forceNew: true });
    await new Promise<void>((resolve) => other.once('connect', resolve));
    const got: number[] = [];
    const done = new Promise<void>((resolve) => {
      other.on('n', (n: number) => {
        got.push(n);
        if (n === PER_BURST * 2 - 1) resolve();
      });
    });
    for (let i = 0; i < PER_BURST; i++) io.emit('n', i);
    client.disconnect();
    for (let i = PER_BURST; i < PER_BURST * 2; i++) io.emit('n', i);
    await done;
    other.disconnect();
    expect(got).toEqual(Array.from({ length: PER_BURST * 2 }, (_, i) => i));
  });
});
