import type { EngineEvent, TurnOptions } from '@tandem/core';
import { SESSION_EVENT, type SessionEvent } from '@tandem/shared';
import type { Socket } from 'socket.io-client';
import { request, startBenchServer, waitForEvent } from './bench-server.js';
import { fmt, percentile } from './stats.js';
import { printTable } from './table.js';

const DELTAS = 5_000;

/**
 * A scripted engine turn that streams DELTAS text deltas, each carrying the time it was
 * yielded, so clients in this process can measure delivery latency through the server.
 */
async function* streamingTurn(options: TurnOptions): AsyncGenerator<EngineEvent> {
  yield { type: 'turn_started', turnId: options.turnId, model: 'bench/stream' };
  let text = '';
  for (let i = 0; i < DELTAS; i++) {
    const delta = `${performance.now().toFixed(3)};`;
    text += delta;
    yield { type: 'text_delta', turnId: options.turnId, delta };
    if (i % 100 === 99) await new Promise((r) => setImmediate(r));
  }
  yield { type: 'assistant_text', turnId: options.turnId, iteration: 1, text };
  yield { type: 'turn_done', turnId: options.turnId, iterations: 1, outcome: 'answered' };
}

async function run(clients: number): Promise<{ p50: number; p99: number; eventsPerSec: number }> {
  const server = await startBenchServer({ engine: { runTurn: streamingTurn } });
  try {
    const driver = await server.connect('driver');
    const { session } = await request<{ session: { id: string } }>(driver, 'session:create', { title: 'fan-out' });
    const sockets: Socket[] = [driver];
    for (let i = 1; i < clients; i++) sockets.push(await server.connect(`viewer-${i}`));
    await Promise.all(sockets.map((s, i) => request(s, 'session:attach', { sessionId: session.id, role: i === 0 ? 'driver' : 'viewer' })));

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
    await request(driver, 'session:send', { sessionId: session.id, text: 'stream' });
    await done;
    const seconds = (performance.now() - started) / 1000;
    return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), eventsPerSec: received / seconds };
  } finally {
    await server.close();
  }
}

export async function benchFanOut(): Promise<void> {
  const rows: string[][] = [];
  for (const clients of [1, 10, 100]) {
    const r = await run(clients);
    rows.push([String(clients), fmt(r.p50), fmt(r.p99), fmt(r.eventsPerSec, 0)]);
  }
  printTable(`Fan-out: one turn streaming ${DELTAS} text deltas`, ['clients', 'p50 ms', 'p99 ms', 'deliveries / s'], rows);
}
