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
async function start(): Promise<{ io: IoServer; client: ClientSocket; corkedDuringFlush: number[]; flushSizes: number[] }> {
  const http = createServer();
  const io = new IoServer(http, { serveClient: false });
  coalesceFlushedFrames(io);
  // Registered after coalesceFlushedFrames, so it runs after it, inside the same flush.
  const corkedDuringFlush: number[] = [];
  const flushSizes: number[] = [];
  io.engine.on('flush', (socket: Parameters<typeof websocketTcp>[0], packets: readonly unknown[]) => {
    flushSizes.push(packets.length);
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
  return { io, client, corkedDuringFlush, flushSizes };
}

/** Another client of the same server, connected. */
async function another(io: IoServer, transport: 'websocket' | 'polling'): Promise<ClientSocket> {
  const socket = connect(`http://127.0.0.1:${(io.httpServer.address() as AddressInfo).port}`, { transports: [transport], forceNew: true });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  return socket;
}

/** Every `n` the client gets, and a promise for when it has `count` of them. */
function numbersTo(socket: ClientSocket, count: number): { got: number[]; all: Promise<void> } {
  const got: number[] = [];
  const all = new Promise<void>((resolve) => {
    socket.on('n', (n: number) => {
      got.push(n);
      if (got.length === count) resolve();
    });
  });
  return { got, all };
}

describe('frame coalescing (one flush and one TCP write per tick of frames)', () => {
  it('sends the frames of one tick in one flush, with the TCP socket corked through it and uncorked after; every frame arrives, in order', async () => {
    const { io, client, corkedDuringFlush, flushSizes } = await start();
    const { got: received, all } = numbersTo(client, BURSTS * PER_BURST);
    const [server] = await io.fetchSockets();
    const socket = io.sockets.sockets.get(server!.id)!;
    // Bursts of frames in one tick each, a tick apart. Without the per-tick flush, the first of
    // a burst would go out alone and the rest after its write.
    flushSizes.length = 0;
    for (let b = 0; b < BURSTS; b++) {
      for (let i = 0; i < PER_BURST; i++) socket.emit('n', b * PER_BURST + i);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await all;
    expect(received).toEqual(Array.from({ length: BURSTS * PER_BURST }, (_, i) => i));
    expect(flushSizes).toEqual(Array.from({ length: BURSTS }, () => PER_BURST));
    expect(corkedDuringFlush.length).toBeGreaterThan(0);
    expect(corkedDuringFlush.every((n) => n === 1)).toBe(true);
    expect(websocketTcp(socket.conn as Parameters<typeof websocketTcp>[0])?.writableCorked).toBe(0);
  });

  it('a client gone in the middle of a burst breaks nothing for the others', async () => {
    const { io, client } = await start();
    const other = await another(io, 'websocket');
    const { got, all } = numbersTo(other, PER_BURST * 2);
    for (let i = 0; i < PER_BURST; i++) io.emit('n', i);
    client.disconnect();
    for (let i = PER_BURST; i < PER_BURST * 2; i++) io.emit('n', i);
    await all;
    other.disconnect();
    expect(got).toEqual(Array.from({ length: PER_BURST * 2 }, (_, i) => i));
  });

  it('a long-polling client (no websocket) gets every frame of every burst, in order', async () => {
    const { io } = await start();
    const polling = await another(io, 'polling');
    const { got, all } = numbersTo(polling, BURSTS * PER_BURST);
    for (let b = 0; b < BURSTS; b++) {
      for (let i = 0; i < PER_BURST; i++) io.emit('n', b * PER_BURST + i);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await all;
    polling.disconnect();
    expect(got).toEqual(Array.from({ length: BURSTS * PER_BURST }, (_, i) => i));
  });

  it('frames sent just before the server closes the connection still arrive, before the disconnect', async () => {
    const { io, client } = await start();
    const got: string[] = [];
    client.on('n', (n: string) => got.push(n));
    const closed = new Promise<string>((resolve) => client.once('disconnect', (reason) => resolve(reason)));
    // A stopping server: frames, then every socket disconnected and the server closed, in one tick.
    io.emit('n', 'last words');
    io.emit('n', 'goodbye');
    io.local.disconnectSockets(true);
    io.close();
    // The client is told it was disconnected by the server (not a transport error), after the frames.
    expect(await closed).toBe('io server disconnect');
    expect(got).toEqual(['last words', 'goodbye']);
  });
});
