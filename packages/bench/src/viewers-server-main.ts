// The server side of the "1,000 viewers" bench, in a process of its own so its RSS is the
// server's alone: `tandem` runs a Tandem server (a streaming scripted turn, one session, a driver
// socket of its own), `raw` a bare socket.io server that puts every client in one room. Over IPC
// it answers `rss` (after a garbage collection) and `stream` (one turn's frames, then `streamed`).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { EngineEvent, TurnOptions } from '@tandem/core';
import { SESSION_EVENT } from '@tandem/shared';
import { Server as IoServer } from 'socket.io';
import { request, startBenchServer, waitForEvent } from './bench-server.js';

export type ViewersServerMessage =
  | { type: 'listening'; url: string; token: string; sessionId: string }
  | { type: 'rss'; rss: number }
  | { type: 'streamed' }
  | { type: 'failed'; message: string };

const [mode, deltasArg] = process.argv.slice(2);
const deltas = Number(deltasArg);
/** Wall-clock milliseconds with sub-millisecond precision, comparable with the viewers' processes. */
const now = () => performance.timeOrigin + performance.now();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const tell = (message: ViewersServerMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

/** Text deltas carrying their index and the time they were made, yielding to the event loop every 100 as a turn does. */
async function* deltaTexts(): AsyncGenerator<string> {
  for (let i = 0; i < deltas; i++) {
    yield `${i}@${now().toFixed(3)};`;
    if (i % 100 === 99) await new Promise((r) => setImmediate(r));
  }
}

async function* streamingTurn(options: TurnOptions): AsyncGenerator<EngineEvent> {
  yield { type: 'turn_started', turnId: options.turnId, model: 'bench/stream' };
  let text = '';
  for await (const delta of deltaTexts()) {
    text += delta;
    yield { type: 'text_delta', turnId: options.turnId, delta };
  }
  yield { type: 'assistant_text', turnId: options.turnId, iteration: 1, text };
  yield { type: 'turn_done', turnId: options.turnId, iterations: 1, outcome: 'answered' };
}

async function tandem(): Promise<() => Promise<void>> {
  const server = await startBenchServer({ engine: { runTurn: streamingTurn } });
  const driver = await server.connect('driver');
  const { session } = await request<{ session: { id: string } }>(driver, 'session:create', { title: '1,000 viewers' });
  await request(driver, 'session:attach', { sessionId: session.id, role: 'driver' });
  await tell({ type: 'listening', url: server.url, token: 'bench-view-token', sessionId: session.id });
  return async () => {
    const done = waitForEvent(driver, 'turn_done', 600_000);
    await request(driver, 'session:send', { sessionId: session.id, text: 'stream' });
    await done;
  };
}

async function raw(): Promise<() => Promise<void>> {
  const http = createServer();
  const io = new IoServer(http, { serveClient: false, maxHttpBufferSize: 4 * 1024 * 1024 });
  io.on('connection', (socket) => void socket.join('room'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  await tell({ type: 'listening', url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, token: 'raw', sessionId: 'raw' });
  return async () => {
    const base = { sessionId: 'raw', turnId: 't1' };
    const ts = () => new Date().toISOString();
    io.to('room').emit(SESSION_EVENT, { ...base, seq: 10, ts: ts(), type: 'turn_started', model: 'bench/stream' });
    let text = '';
    for await (const delta of deltaTexts()) {
      text += delta;
      io.to('room').emit(SESSION_EVENT, { ...base, seq: 10, ts: ts(), ephemeral: true, type: 'text_delta', delta });
    }
    io.to('room').emit(SESSION_EVENT, { ...base, seq: 11, ts: ts(), type: 'assistant_text', iteration: 1, text });
    io.to('room').emit(SESSION_EVENT, { ...base, seq: 12, ts: ts(), type: 'turn_done', iterations: 1, outcome: 'answered' });
  };
}

async function main(): Promise<void> {
  if ((mode !== 'tandem' && mode !== 'raw') || !(deltas > 0) || !process.send) throw new Error('usage: viewers-server-main tandem|raw DELTAS (forked)');
  const stream = mode === 'tandem' ? await tandem() : await raw();
  process.on('message', (message: { type: string }) => {
    if (message.type === 'rss') {
      gc();
      gc();
      void tell({ type: 'rss', rss: process.memoryUsage().rss });
    } else if (message.type === 'stream') {
      stream().then(
        () => tell({ type: 'streamed' }),
        (err: unknown) => tell({ type: 'failed', message: String(err) }),
      );
    }
  });
}

main().catch(async (err: unknown) => {
  await tell({ type: 'failed', message: err instanceof Error ? err.message : String(err) });
  process.exit(1);
});
