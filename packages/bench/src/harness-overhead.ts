import { z } from 'zod';
import { defineTool } from '@tandem/core';
import { startFakeModelServer, type FakeReply, type FakeRequest } from '@tandem/testkit';
import { request, startBenchServer, waitForEvent } from './bench-server.js';
import { minimalSdkLoop } from './minimal-sdk-loop.js';
import { fmt } from './stats.js';
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
 * Tandem: a real server (event log on disk), one attached client, the real loop and adapter. One
 * unmeasured turn first in a session of its own, as the baseline gets its warm-up run: the
 * figure compares warm code with warm code, not the JIT's first pass over the server's path.
 */
async function throughTandem(baseURL: string): Promise<number> {
  const server = await startBenchServer({
    env: { ...process.env, OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: 'bench', TANDEM_MODEL: 'openai/bench-model' },
    tools: () => [noopTool],
    limits: { maxIterations: ITERATIONS + 5 },
    // Guards stay on (their checks are part of the path measured); only the 30-calls-a-minute
    // limit and the identical-call cooldown are lifted, or the turn would wait for minutes.
    guards: { rateLimit: { maxCalls: 1_000_000, identicalCooldownMs: 0 } },
  });
  try {
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
    await turn(); // warm-up
    return await turn();
  } finally {
    await server.close();
  }
}

export async function benchHarnessOverhead(): Promise<void> {
  const fake = await startFakeModelServer();
  fake.setHandler(scriptedReply);
  try {
    await minimalLoop(fake.openaiBaseURL); // warm-up
    const baseline = await minimalLoop(fake.openaiBaseURL);
    const tandem = await throughTandem(fake.openaiBaseURL);
    printTable(
      `Harness overhead: one ${ITERATIONS}-iteration turn, trivial tool, fake model server (each side after one warm-up turn)`,
      ['path', 'total ms', 'ms / iteration'],
      [
        ['minimal loop (SDK + tool)', fmt(baseline, 0), fmt(baseline / ITERATIONS)],
        ['tandem (server, log, 1 client)', fmt(tandem, 0), fmt(tandem / ITERATIONS)],
        ['ratio tandem / minimal', fmt(tandem / baseline), ''],
      ],
    );
  } finally {
    await fake.close();
  }
}
