import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent, TurnOptions } from '@tandem/core';
import type { SessionEvent } from '@tandem/shared';
import { idleModelFactory } from './scripted-engine.js';
import { startTestServer, type TestServer } from './server-harness.js';

let server: TestServer;
afterEach(async () => {
  await server.stop();
});

/** A loop that floods the session with persisted events, yielding to the event loop now and then. */
function floodingLoop(count: number) {
  return (opts: TurnOptions): AsyncIterable<EngineEvent> =>
    (async function* () {
      yield { type: 'turn_started', turnId: opts.turnId, model: opts.model.id };
      for (let i = 0; i < count; i++) {
        yield { type: 'command_output', callId: 'flood', data: `${i}\n` };
        if (i % 7 === 0) await new Promise((r) => setImmediate(r));
      }
      yield { type: 'turn_done', turnId: opts.turnId, iterations: 1, outcome: 'answered' };
    })();
}

function assertContiguous(events: SessionEvent[], from: number, to: number): void {
  const seqs = events.filter((e) => !e.ephemeral).map((e) => e.seq);
  expect(seqs[0]).toBe(from);
  expect(seqs.at(-1)).toBe(to);
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1]! + 1);
}

describe('attaching while events stream', () => {
  it('replay plus live events have no gap and no duplicate, whenever the attach lands', async () => {
    server = await startTestServer({ engine: { runTurn: floodingLoop(3000) }, modelFactory: idleModelFactory });
    const driver = await server.connect('driver');
    const { session } = await driver.ok('session:create', {});
    await driver.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await driver.ok('session:send', { sessionId: session.id, text: 'flood' });

    // Attach several watchers at different moments during the flood, some with afterSeq.
    const watchers: Array<{ afterSeq: number; replayed: number; all: SessionEvent[]; done: Promise<SessionEvent> }> = [];
    for (let k = 0; k < 4; k++) {
      await new Promise((r) => setTimeout(r, 5 * k));
      const watcher = await server.connect(`watcher-${k}`);
      const afterSeq = k % 2 === 0 ? 0 : Math.max(0, (driver.events.at(-1)?.seq ?? 0) - 50);
      const attached = await watcher.ok('session:attach', { sessionId: session.id, role: 'viewer', afterSeq });
      watchers.push({
        afterSeq,
        replayed: attached.events.at(-1)?.seq ?? afterSeq,
        all: [...attached.events, ...watcher.events],
        done: watcher.waitFor((e) => e.type === 'turn_done'),
      });
      // Live events that arrive later are appended through the watcher's array.
      const entry = watchers.at(-1)!;
      watcher.socket.on('session:event', (e: SessionEvent) => entry.all.push(e));
    }
    const end = await driver.waitFor((e) => e.type === 'turn_done');
    // The point of the test: at least one attach landed mid-flood (part replay, part live).
    expect(watchers.some((w) => w.replayed > 1 && w.replayed < end.seq)).toBe(true);
    for (const w of watchers) {
      await w.done;
      const last = w.all.findIndex((e) => e.type === 'turn_done');
      assertContiguous(w.all.slice(0, last + 1), w.afterSeq + 1, end.seq);
    }
  });
});
