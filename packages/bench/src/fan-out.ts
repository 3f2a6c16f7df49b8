import type { EngineEvent, TurnOptions } from '@tandem/core';
import { SESSION_EVENT, type SessionEvent } from '@tandem/shared';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as IoServer } from 'socket.io';
import { io as connectIo, type Socket } from 'socket.io-client';
import { request, startBenchServer, waitForEvent } from './bench-server.js';
import { fmt, median, percentile } from './stats.js';
import { printTable } from './table.js';

export const DELTAS = 5_000;

/** Who says delta `i` when `agents` workers stream at once (round-robin); nobody's tag for one speaker. */
function speakerOf(i: number, agents: number): { agent: string; taskId: string } | Record<string, never> {
  if (agents <= 1) return {};
  const k = i % agents;
  return { agent: `worker-${k + 1}`, taskId: `task-${k + 1}` };
}

/**
 * A scripted engine turn that streams DELTAS text deltas, each carrying the time it was
 * yielded, so clients in this process can measure delivery latency through the server. With
 * `agents` > 1 the deltas come from that many workers at once (tagged with their agent and task,
 * as a dispatched worker's are), each with its own partial reply on the server.
 */
export function streamingTurnOf(agents: number) {
  return async function* streamingTurn(options: TurnOptions): AsyncGenerator<EngineEvent> {
    yield { type: 'turn_started', turnId: options.turnId, model: 'bench/stream' };
    let text = '';
    for (let i = 0; i < DELTAS; i++) {
      const delta = `${performance.now().toFixed(3)};`;
      text += delta;
      yield { type: 'text_delta', turnId: options.turnId, delta, ...speakerOf(i, agents) };
      if (i % 100 === 99) await new Promise((r) => setImmediate(r));
    }
    yield { type: 'assistant_text', turnId: options.turnId, iteration: 1, text };
    yield { type: 'turn_done', turnId: options.turnId, iterations: 1, outcome: 'answered' };
  };
}

/** One speaker streaming DELTAS text deltas (the cluster bench's turn too). */
export const streamingTurn = streamingTurnOf(1);

export interface FanOutResult {
  p50: number;
  p99: number;
  eventsPerSec: number;
}

/**
 * Sends the streaming message from `driver` and times each text_delta on every attached socket
 * (from the time it carries to its arrival) until every socket has seen turn_done.
 */
export async function timeStream(driver: Socket, sockets: readonly Socket[], sessionId: string): Promise<FanOutResult> {
  const latencies: number[] = [];
  let received = 0;
  for (const socket of sockets) {
    socket.on(SESSION_EVENT, (event: SessionEvent) => {
      if (event.type !== 'text_delta') return;
      received++;
      latencies.push(performance.now() - Number(event.delta.slice(0, -1)));
    });
  }
  const done = Promise.all(sockets.map((s) => waitForEvent(s, 'turn_done')));
  const started = performance.now();
  await request(driver, 'session:send', { sessionId, text: 'stream' });
  await done;
  const seconds = (performance.now() - started) / 1000;
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), eventsPerSec: received / seconds };
}

/** Collects text_delta latencies on every socket; resolves once each has seen turn_done. */
function listen(sockets: Socket[]): { latencies: number[]; received: () => number; done: Promise<unknown> } {
  const latencies: number[] = [];
  let received = 0;
  const done = sockets.map(
    (socket) =>
      new Promise<void>((resolve) => {
        socket.on(SESSION_EVENT, (event: SessionEvent) => {
          if (event.type === 'turn_done') return resolve();
          if (event.type !== 'text_delta') return;
          received++;
          latencies.push(performance.now() - Number(event.delta.slice(0, -1)));
        });
      }),
  );
  return { latencies, received: () => received, done: Promise.all(done) };
}

/**
 * The baseline: a bare socket.io server (same version, same options as Tandem's) broadcasting the
 * same events to a room of `clients` websocket clients in this process, yielding as the turn does.
 */
async function runRaw(clients: number, agents: number): Promise<FanOutResult> {
  const http = createServer();
  const io = new IoServer(http, { serveClient: false, maxHttpBufferSize: 4 * 1024 * 1024 });
  io.on('connection', (socket) => void socket.join('room'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const sockets: Socket[] = [];
  try {
    for (let i = 0; i < clients; i++) {
      const socket = connectIo(url, { transports: ['websocket'], forceNew: true });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
    }
    while (io.sockets.adapter.rooms.get('room')?.size !== clients) await new Promise((r) => setImmediate(r));
    const { latencies, received, done } = listen(sockets);
    const started = performance.now();
    const base = { sessionId: 'raw', ts: new Date().toISOString() };
    for (let i = 0; i < DELTAS; i++) {
      const delta = `${performance.now().toFixed(3)};`;
      io.to('room').emit(SESSION_EVENT, { ...base, seq: 2, type: 'text_delta', turnId: 't1', delta, ephemeral: true, ...speakerOf(i, agents) });
      if (i % 100 === 99) await new Promise((r) => setImmediate(r));
    }
    io.to('room').emit(SESSION_EVENT, { ...base, seq: 3, type: 'turn_done', turnId: 't1', iterations: 1, outcome: 'answered' });
    await done;
    const seconds = (performance.now() - started) / 1000;
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), eventsPerSec: received() / seconds };
  } finally {
    for (const socket of sockets) socket.disconnect();
    io.close();
  }
}

async function run(clients: number, agents: number): Promise<FanOutResult> {
  const server = await startBenchServer({ engine: { runTurn: streamingTurnOf(agents) } });
  try {
    const driver = await server.connect('driver');
    const { session } = await request<{ session: { id: string } }>(driver, 'session:create', { title: 'fan-out' });
    const sockets: Socket[] = [driver];
    for (let i = 1; i < clients; i++) sockets.push(await server.connect(`viewer-${i}`));
    await Promise.all(sockets.map((s, i) => request(s, 'session:attach', { sessionId: session.id, role: i === 0 ? 'driver' : 'viewer' })));

    return await timeStream(driver, sockets, session.id);
  } finally {
    await server.close();
  }
}

const FAN_OUT_RUNS = 3;
/** Workers streaming at once in the last row (a commander's default concurrency is 4). */
const FAN_OUT_AGENTS = 4;

/** Tandem and the raw socket.io baseline, interleaved (the order alternating), medians of FAN_OUT_RUNS. */
export async function benchFanOut(): Promise<void> {
  const rows: string[][] = [];
  const setups: Array<[clients: number, agents: number]> = [
    [1, 1],
    [10, 1],
    [100, 1],
    [100, FAN_OUT_AGENTS],
  ];
  for (const [clients, agents] of setups) {
    const tandem: FanOutResult[] = [];
    const raw: FanOutResult[] = [];
    for (let i = 0; i < FAN_OUT_RUNS; i++) {
      if (i % 2 === 0) {
        tandem.push(await run(clients, agents));
        raw.push(await runRaw(clients, agents));
      } else {
        raw.push(await runRaw(clients, agents));
        tandem.push(await run(clients, agents));
      }
    }
    const m = (results: FanOutResult[], key: keyof FanOutResult) => median(results.map((r) => r[key]));
    rows.push([
      String(clients),
      String(agents),
      fmt(m(tandem, 'p50')),
      fmt(m(tandem, 'p99')),
      fmt(m(raw, 'p50')),
      fmt(m(raw, 'p99')),
      fmt(m(tandem, 'p99') / m(raw, 'p99')),
      fmt(m(tandem, 'eventsPerSec'), 0),
      fmt(m(raw, 'eventsPerSec'), 0),
    ]);
  }
  printTable(
    `Fan-out: one turn streaming ${DELTAS} text deltas, from one speaker or from ${FAN_OUT_AGENTS} workers at once (median of ${FAN_OUT_RUNS} interleaved runs; goal p99 ratio <= 1.2)`,
    [
      'clients',
      'agents streaming',
      'tandem p50 ms',
      'tandem p99 ms',
      'raw socket.io p50 ms',
      'raw p99 ms',
      'p99 tandem / raw',
      'tandem deliveries / s',
      'raw deliveries / s',
    ],
    rows,
  );
}
