import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request, startBenchServer } from './bench-server.js';

/** Messages one turn of `writeLongLog` adds to the conversation: the question, 11 assistant messages, 10 results. */
const MESSAGES_PER_TURN = 22;
/** Turns a compaction keeps verbatim. */
const KEPT_TURNS = 25;

/**
 * A log of `count` events in the shape of real turns: a message, then ten read_file calls with
 * their results (a few hundred bytes each), the answer and turn_done (24 events per turn). With
 * `compactEveryTurns`, a `compaction` folds all but the last 25 turns that often, as the session
 * does when the next request would pass 80 % of the model's window.
 */
export async function writeLongLog(path: string, sessionId: string, fromSeq: number, count: number, compactEveryTurns?: number): Promise<void> {
  const out = createWriteStream(path, { flags: 'a' });
  const body = 'export function example(value: number): number {\n  return value * 2;\n}\n'.repeat(5);
  let seq = fromSeq;
  let turn = 0;
  let messages = 0;
  const write = async (event: Record<string, unknown>) => {
    seq++;
    if (!out.write(`${JSON.stringify({ sessionId, seq, ts: '2026-12-01T00:00:00.000Z', ...event })}\n`)) await once(out, 'drain');
  };
  while (seq < fromSeq + count) {
    const turnId = `t${++turn}`;
    if (compactEveryTurns && turn % compactEveryTurns === 0) {
      const folded = messages - KEPT_TURNS * MESSAGES_PER_TURN;
      await write({
        type: 'compaction',
        foldedMessages: folded,
        tokensBefore: 100_000,
        tokensAfter: 20_000,
        summary: `Summary of turns up to ${turn - KEPT_TURNS}.`,
      });
      messages -= folded - 1;
    }
    await write({ type: 'user_message', text: `question ${turn}: what does src/file-${turn}.ts do?`, by: 'ana', mode: 'turn' });
    await write({ type: 'turn_started', turnId, model: 'bench/model' });
    for (let i = 0; i < 10; i++) {
      const callId = `${turnId}-c${i}`;
      await write({ type: 'tool_call', turnId, iteration: i + 1, callId, tool: 'read_file', args: { path: `src/file-${i}.ts` }, danger: 'safe' });
      await write({ type: 'tool_result', turnId, callId, tool: 'read_file', isError: false, output: body, durationMs: 2, outcome: 'ok' });
    }
    await write({ type: 'assistant_text', turnId, iteration: 11, text: `It doubles a number. ${'The function is pure. '.repeat(10)}` });
    await write({ type: 'turn_done', turnId, iterations: 11, outcome: 'answered' });
    messages += MESSAGES_PER_TURN;
  }
  out.end();
  await once(out, 'finish');
}

/** A session created by a server in `dataDir` (so it is indexed), its log then filled to `events` events. */
export async function createLongSession(dataDir: string, events: number, compactEveryTurns?: number): Promise<{ session: { id: string }; logPath: string }> {
  const first = await startBenchServer({ dataDir });
  const driver = await first.connect('driver');
  const { session } = await request<{ session: { id: string } }>(driver, 'session:create', { title: 'long session' });
  await first.close();
  const logPath = join(dataDir, 'sessions', session.id, 'events.jsonl');
  const existing = (await readFile(logPath, 'utf8')).split('\n').filter(Boolean).length;
  await writeLongLog(logPath, session.id, existing, events - existing, compactEveryTurns);
  return { session, logPath };
}
