import { z } from 'zod';
import { defineTool } from '@tandem/core';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '@tandem/testkit';
import { request, startBenchServer, waitForEvent } from './bench-server.js';
import { minimalSdkLoop } from './minimal-sdk-loop.js';
import type { BenchOptions } from './bench-options.js';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const ITERATIONS = 200;

/** The trivial tool both sides run: returns its argument. */
const noopTool = defineTool({
  name: 'noop',
  description: 'Returns its input. Benchmark tool.',
  schema: z.object({ i: z.number() }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  execute: async ({ i }) => `ok ${i}`,
});

/** Tool calls until the conversation holds ITERATIONS tool results, then a final answer. */
function scriptedReply(req: FakeRequest): FakeReply {
  const messages = (req.body?.messages ?? []) as Array<{ role: string }>;
  const done = messages.filter((m) => m.role === 'tool').length;
  return done < ITERATIONS ? { toolCalls: [{ name: 'noop', args: { i: done } }] } : { text: 'done' };
}

/** The baseline: the same SDK and tool in a minimal loop, no server, no persistence. */
async function minimalLoop(baseURL: string): Promise<number> {
  const tools = [
    { type: 'function' as const, function: { name: 'noop', description: 'x', parameters: z.toJSONSchema(noopTool.schema) as Record<string, unknown> } },
  ];
  const started = performance.now();
  await minimalSdkLoop({
    baseURL,
    apiKey: 'bench',
    system: 'bench',
    tools,
    maxRequests: ITERATIONS + 1,
    runTool: async (call) => String(await noopTool.execute(noopTool.schema.parse(JSON.parse(call.args)), undefined as never)),
  });
  return performance.now() - started;
}

/**
 * Tandem: a real server (event log on disk), one attached client, the real loop and adapter. Each
 * turn runs in a session of its own on the same server, as a long-lived server runs them; the
 * first turn is unmeasured, as the baseline gets its warm-up run: the figures compare warm code
 * with warm code, not the JIT's first pass over the server's path.
 */
async function tandemServer(baseURL: string): Promise<{ turn(): Promise<number>; close(): Promise<void> }> {
  const server = await startBenchServer({
    env: { ...process.env, OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'bench', TANDEM_MODEL: 'openai/bench-model' },
    // The provider's request governor (1,000 requests a minute per key by default) would pace
    // every request after the fifth turn at 60 ms: lifted, as the minimal loop has none.
    config: { providers: { openai: { requestsPerMinute: 1_000_000 } } },
    tools: () => [noopTool],
    limits: { maxIterations: ITERATIONS + 5 },
    // Guards stay on (their checks are part of the path measured); only the 30-calls-a-minute
    // limit and the identical-call cooldown are lifted, or the turn would wait for minutes.
    guards: { rateLimit: { maxCalls: 1_000_000, identicalCooldownMs: 0 } },
  });
  const socket = await server.connect('bench');
  const turn = async () => {
    const { session } = await request<{ session: { id: string } }>(socket, 'session:create', { title: 'bench' });
    await request(socket, 'session:attach', { sessionId: session.id, role: 'driver' });
    const done = waitForEvent(socket, 'turn_done');
    const started = performance.now();
    await request(socket, 'session:send', { sessionId: session.id, text: 'go' });
    const end = await done;
    const elapsed = performance.now() - started;
    if (end.type === 'turn_done' && end.iterations < ITERATIONS) throw new Error(`turn ended after ${end.iterations} iterations (${end.outcome})`);
    await request(socket, 'session:detach', { sessionId: session.id });
    return elapsed;
  };
  return { turn, close: () => server.close() };
}

/**
 * The per-step cost of Tandem's harness over a minimal SDK loop, in one process: `runs` pairs
 * (minimal loop, then a Tandem turn) interleaved after one warm-up of each, so a machine whose
 * speed drifts moves both sides of a pair alike. The goal (issue 33) is read on the median of the
 * pairs' ratios; the run-by-run ratios show the spread.
 */
export async function benchHarnessOverhead(options: BenchOptions): Promise<void> {
  const runs = options.runs ?? (options.quick ? 3 : 7);
  if (runs === 0) return;
  const fake = await startFakeModelServer();
  fake.setHandler(scriptedReply);
  const tandem = await tandemServer(fake.openaiBaseURL);
  try {
    await minimalLoop(fake.openaiBaseURL); // warm-up
    await tandem.turn(); // warm-up
    const pairs: Array<{ minimal: number; tandem: number }> = [];
    for (let i = 0; i < runs; i++) pairs.push({ minimal: await minimalLoop(fake.openaiBaseURL), tandem: await tandem.turn() });
    const minimal = median(pairs.map((p) => p.minimal));
    const ours = median(pairs.map((p) => p.tandem));
    const ratios = pairs.map((p) => p.tandem / p.minimal);
    printTable(
      `Harness overhead: ${ITERATIONS}-iteration turns, trivial tool, fake model server; median of ${runs} interleaved pairs after one warm-up turn each (goal: ratio ≤ 1.2)`,
      ['path', 'total ms', 'ms / iteration'],
      [
        ['minimal loop (SDK + tool)', fmt(minimal, 0), fmt(minimal / ITERATIONS)],
        ['tandem (server, log, 1 client)', fmt(ours, 0), fmt(ours / ITERATIONS)],
        ['ratio tandem / minimal (median of the pairs)', fmt(median(ratios)), ''],
      ],
    );
    console.log(`ratio tandem / minimal pair by pair: ${ratios.map((r) => fmt(r)).join(' ')}`);
  } finally {
    await tandem.close();
    await fake.close();
  }
}
