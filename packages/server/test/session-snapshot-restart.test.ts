import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { conversationFromEvents, type EngineEvent, type TurnOptions } from '@tandem/core';
import type { Message } from '@tandem/ai';
import type { SessionEvent } from '@tandem/shared';
import { idleModelFactory } from './scripted-engine.js';
import { startTestServer, type TestServer } from './server-harness.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

/** A turn of `count` tool calls and results (more than a snapshot's 2,000 events); records the conversation it got. */
function toolTurns(count: number, seen: Message[][]) {
  return (opts: TurnOptions): AsyncIterable<EngineEvent> =>
    (async function* () {
      seen.push(opts.conversation);
      yield { type: 'turn_started', turnId: opts.turnId, model: opts.model.id };
      for (let i = 0; i < count; i++) {
        const callId = `${opts.turnId}-${i}`;
        yield { type: 'tool_call', turnId: opts.turnId, iteration: i + 1, callId, tool: 'read_file', args: { path: `f${i}` }, danger: 'safe' };
        yield { type: 'tool_result', turnId: opts.turnId, callId, tool: 'read_file', isError: false, output: `body ${i} é`, durationMs: 1, outcome: 'ok' };
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      yield { type: 'assistant_text', turnId: opts.turnId, iteration: count + 1, text: 'done' };
      yield { type: 'turn_done', turnId: opts.turnId, iterations: count + 1, outcome: 'answered' };
    })() as AsyncIterable<EngineEvent>;
}

async function logEvents(dataDir: string, sessionId: string): Promise<SessionEvent[]> {
  const text = await readFile(join(dataDir, 'sessions', sessionId, 'events.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SessionEvent);
}

describe('session snapshots across a restart', () => {
  it('a running session writes one; the next server loads from it with the same conversation and history', async () => {
    const seen: Message[][] = [];
    const first = await startTestServer({ engine: { runTurn: toolTurns(1100, seen) }, modelFactory: idleModelFactory });
    servers.push(first);
    const driver = await first.connect('driver');
    const { session } = await driver.ok('session:create', {});
    await driver.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await driver.ok('session:send', { sessionId: session.id, text: 'read them all' });
    await driver.waitFor((e) => e.type === 'turn_done');
    // Written in the background once 2,000 events are in the log, while the session runs.
    const file = join(first.dataDir, 'sessions', session.id, 'snapshot.json');
    await vi.waitFor(() => expect(existsSync(file)).toBe(true), { timeout: 60_000 });
    const page = await driver.ok('session:history', { sessionId: session.id, beforeSeq: 1500, limit: 40 });
    await first.stop();
    servers.length = 0;

    // Closing wrote a last one, covering the whole log.
    const logged = await logEvents(first.dataDir, session.id);
    const snapshot = JSON.parse(await readFile(file, 'utf8')) as { version: number; log: { seq: number; offset: number } };
    expect(snapshot.version).toBe(1);
    expect(snapshot.log.seq).toBe(logged.at(-1)!.seq);
    // Only a load that skips the log's start misses this edit of its first message (same length, so offsets hold).
    const logFile = join(first.dataDir, 'sessions', session.id, 'events.jsonl');
    await writeFile(logFile, (await readFile(logFile, 'utf8')).replace('"text":"read them all"', '"text":"READ THEM ALL"'));

    const second = await startTestServer({ dataDir: first.dataDir, engine: { runTurn: toolTurns(1, seen) }, modelFactory: idleModelFactory });
    servers.push(second);
    const viewer = await second.connect('viewer');
    expect((await viewer.ok('session:history', { sessionId: session.id, beforeSeq: 1500, limit: 40 })).events).toEqual(page.events);
    await viewer.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await viewer.ok('session:send', { sessionId: session.id, text: 'again' });
    await viewer.waitFor((e) => e.type === 'turn_done');
    await second.stop();
    servers.length = 0;

    // The second turn got the conversation a fold of the whole log before its message gives,
    // except the first message, which came from the snapshot.
    const all = await logEvents(first.dataDir, session.id);
    const asked = all.find((e) => e.type === 'user_message' && e.text === 'again')!;
    const folded = conversationFromEvents(all.filter((e) => e.seq < asked.seq));
    expect(folded[0]).toEqual({ role: 'user', text: 'READ THEM ALL' });
    expect(seen[1]![0]).toEqual({ role: 'user', text: 'read them all' });
    expect(seen[1]!.slice(1)).toEqual(folded.slice(1));
    expect(seen[1]!.length).toBe(1 + 2 * 1100 + 1);
  });
});
