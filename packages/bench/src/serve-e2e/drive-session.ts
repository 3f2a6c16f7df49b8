import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { ClientMessage } from '../serve-client-main.js';
import { procStats, resetPeakRss } from './proc-stats.js';
import { BENCH_TOKEN, REPO_ROOT, type ServeProcess } from './serve-process.js';

export interface RunFigures {
  ms: number;
  cpuMs: number;
  peakRssMb: number;
  iterations: number;
  /** send → turn_done on the monotonic clock (µs), which V8 CPU profiles also use. */
  windowUs?: [number, number];
}

const TURN_LIMIT_MS = 600_000;

/**
 * One attached client drives one turn of the server: a client process (serve-client-main,
 * socket.io over websocket, as a terminal UI attaches) creates a session in the workspace,
 * attaches as driver, sends, waits for turn_done. Wall time covers send → turn_done as the
 * client saw it; the server's CPU time is read from /proc just before `go` and just after
 * `done`; peak RSS is the server's high-water mark after the turn (with `resetPeak`, of this turn
 * only: the mark is set back to the current RSS just before `go`). `turns` > 1 sends that many
 * turns one after another in the same session; the figures then cover them all.
 */
export async function driveOneTurn(server: ServeProcess, expectedIterations: number, { resetPeak = false, turns = 1 } = {}): Promise<RunFigures> {
  const client = fork(join(REPO_ROOT, 'packages/bench/dist/serve-client-main.js'), [server.url, BENCH_TOKEN, server.workspace, String(turns)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    const next = () =>
      new Promise<ClientMessage>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('the bench client said nothing within 10 minutes')), TURN_LIMIT_MS);
        const onExit = (code: number | null) => reject(new Error(`the bench client exited (code ${code}) before it reported`));
        client.once('exit', onExit);
        client.once('message', (message: ClientMessage) => {
          clearTimeout(timer);
          client.off('exit', onExit);
          if (message.type === 'failed') reject(new Error(`bench client: ${message.message}`));
          else resolve(message);
        });
      });
    const ready = await next();
    if (ready.type !== 'ready') throw new Error(`bench client: expected ready, got ${ready.type}`);
    if (resetPeak) await resetPeakRss(server.pid);
    const before = await procStats(server.pid);
    const finished = next();
    client.send('go');
    const end = await finished;
    const after = await procStats(server.pid);
    if (end.type !== 'done') throw new Error(`bench client: expected done, got ${end.type}`);
    if (end.iterations < expectedIterations) throw new Error(`turn ended after ${end.iterations} of ${expectedIterations} iterations (${end.outcome})`);
    return { ms: end.ms, cpuMs: after.cpuMs - before.cpuMs, peakRssMb: after.peakRssMb, iterations: end.iterations, windowUs: end.windowUs };
  } finally {
    if (client.exitCode === null) client.kill();
  }
}
