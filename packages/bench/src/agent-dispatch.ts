import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FakeReply, type FakeRequest, startFakeModelServer } from '@tandem/testkit';
import type { SessionEvent, SessionInfo } from '@tandem/shared';
import { request, startBenchServer } from './bench-server.js';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

/** The fake model's fixed time per request, standing in for a provider's latency. */
const DELAY_MS = 150;
const RUNS = 3;
const SIZES = [2, 4, 8];

type Mode = 'parallel' | 'sequential';

const system = (req: FakeRequest): string => {
  const messages = (req.body?.messages ?? []) as Array<{ role: string; content?: unknown }>;
  return String(messages.find((m) => m.role === 'system')?.content ?? '');
};
const toolMessages = (req: FakeRequest): number => ((req.body?.messages ?? []) as Array<{ role: string }>).filter((m) => m.role === 'tool').length;

/**
 * The model: in `parallel`, the commander's first reply starts N workers with run_worker in one
 * reply, each worker answers in one request, and the commander answers; in `sequential` the
 * commander does the same N tasks itself, one tool call (a cheap file lookup) per request.
 * Every request waits DELAY_MS.
 */
function replyFor(mode: Mode, n: number) {
  return (req: FakeRequest): FakeReply => {
    if (system(req).includes('You are a worker')) return { text: 'task done', delayMs: DELAY_MS };
    const done = toolMessages(req);
    if (mode === 'parallel') {
      if (done === 0) return { toolCalls: Array.from({ length: n }, (_, i) => ({ name: 'run_worker', args: { task: `task ${i + 1}` } })), delayMs: DELAY_MS };
      return { text: 'all done', delayMs: DELAY_MS };
    }
    if (done < n) return { toolCalls: [{ name: 'get_file_info', args: { path: `task-${done + 1}.txt` } }], delayMs: DELAY_MS };
    return { text: 'all done', delayMs: DELAY_MS };
  };
}

async function oneRun(mode: Mode, n: number): Promise<number> {
  const fake = await startFakeModelServer();
  const workspace = await mkdtemp(join(tmpdir(), 'tandem-bench-agents-'));
  fake.setHandler(replyFor(mode, n));
  const server = await startBenchServer({ env: { OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.openaiBaseURL } });
  try {
    const socket = await server.connect('bench');
    const { session } = await request<{ session: SessionInfo }>(socket, 'session:create', { cwd: workspace, model: 'openai/fake-model' });
    await request(socket, 'session:attach', { sessionId: session.id, role: 'driver' });
    const ended = new Promise<void>((resolve) => {
      socket.on('session:event', (event: SessionEvent) => {
        if (event.type === 'turn_done' && (event.agent ?? 'commander') === 'commander') resolve();
      });
    });
    const started = performance.now();
    await request(socket, 'session:send', { sessionId: session.id, text: `do the ${n} tasks` });
    await ended;
    return performance.now() - started;
  } finally {
    await server.close();
    await fake.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

/**
 * Dispatch overhead (issue 13): N tasks as N parallel workers beside the same N tasks as one
 * agent's sequential tool calls, against a fake model with a fixed delay per request, runs
 * interleaved. Parallel needs 3 request times whatever N (up to the limit of 4 at once);
 * sequential needs N + 1.
 */
export async function benchAgentDispatch(): Promise<void> {
  const rows: string[][] = [];
  for (const n of SIZES) {
    const parallel: number[] = [];
    const sequential: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      parallel.push(await oneRun('parallel', n));
      sequential.push(await oneRun('sequential', n));
    }
    const p = median(parallel);
    const s = median(sequential);
    const ideal = (Math.ceil(n / 4) + 2) * DELAY_MS;
    rows.push([String(n), fmt(s, 0), fmt(p, 0), fmt(ideal, 0), fmt(p / s), fmt(p - ideal, 0)]);
  }
  printTable(
    `agent dispatch: N tasks as parallel workers vs one agent's sequential tool calls (fake model ${DELAY_MS} ms per request, median of ${RUNS})`,
    ['N', 'sequential ms', 'parallel ms', 'parallel ideal ms', 'parallel/sequential', 'overhead ms'],
    rows,
  );
}
