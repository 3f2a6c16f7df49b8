import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent, TurnOptions } from '@tandem/core';
import type { SessionEvent } from '@tandem/shared';
import { idleModelFactory } from './scripted-engine.js';
import { startTestServer, type TestClient, type TestServer } from './server-harness.js';

let server: TestServer;
afterEach(async () => {
  await server.stop();
});

/**
 * A turn that writes `count` command_output events (more than the 2,000 the server keeps in
 * memory, so older pages come from the file), then asks for permission and waits until `release`.
 */
function longTurn(count: number, release: Promise<void>) {
  return (opts: TurnOptions): AsyncIterable<EngineEvent> =>
    (async function* () {
      yield { type: 'turn_started', turnId: opts.turnId, model: opts.model.id };
      for (let i = 0; i < count; i++) {
        // Multi-byte text, so byte offsets and characters differ.
        yield { type: 'command_output', callId: 'flood', data: `ligne ${i} é ✓ ${'x'.repeat(i % 50)}\n` };
        if (i % 50 === 0) await new Promise((r) => setImmediate(r));
      }
      yield { type: 'assistant_text', turnId: opts.turnId, iteration: 1, text: 'halfway' };
      await release;
      yield { type: 'turn_done', turnId: opts.turnId, iterations: 1, outcome: 'answered' };
    })();
}

async function pageUp(client: TestClient, sessionId: string, beforeSeq: number, limit: number): Promise<{ seqs: number[]; pages: number }> {
  const seqs: number[] = [];
  let pages = 0;
  let before = beforeSeq;
  for (;;) {
    const page = await client.ok('session:history', { sessionId, beforeSeq: before, limit });
    pages++;
    expect(page.events.length).toBeLessThanOrEqual(limit);
    seqs.unshift(...page.events.map((e) => e.seq));
    if (!page.hasMore) break;
    expect(page.firstSeq).toBe(page.events[0]?.seq);
    before = page.firstSeq!;
  }
  return { seqs, pages };
}

describe('attaching to a long session with a tail, then paging up', () => {
  it('the tail is at most N events after the open turn, and history pages are contiguous down to seq 1', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server = await startTestServer({ engine: { runTurn: longTurn(3500, held) }, modelFactory: idleModelFactory });
    const driver = await server.connect('driver');
    const { session } = await driver.ok('session:create', {});
    await driver.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await driver.ok('session:send', { sessionId: session.id, text: 'flood' });
    const halfway = await driver.waitFor((e) => e.type === 'assistant_text');

    const viewer = await server.connect('viewer');
    const attached = await viewer.ok('session:attach', { sessionId: session.id, role: 'viewer', tail: 100 });
    expect(attached.hasMore).toBe(true);
    const tail = attached.events.filter((e) => e.seq >= attached.firstSeq!);
    expect(tail).toHaveLength(100);
    expect(tail.at(-1)?.seq).toBe(halfway.seq);
    // Before the tail: only what is still in effect, here the open turn's start (and presence).
    const before = attached.events.filter((e) => e.seq < attached.firstSeq!);
    expect(before.map((e) => e.type)).toContain('turn_started');
    expect(before.every((e) => ['turn_started', 'presence', 'user_message'].includes(e.type) || e.type === 'session_info')).toBe(true);
    expect(before.length).toBeLessThanOrEqual(3);

    // Paging up from the tail's first seq: every older seq once, in order, down to the first.
    const { seqs, pages } = await pageUp(viewer, session.id, attached.firstSeq!, 300);
    const all = [...seqs, ...tail.map((e) => e.seq)];
    expect(all[0]).toBe(1);
    for (let i = 1; i < all.length; i++) expect(all[i]).toBe(all[i - 1]! + 1);
    expect(pages).toBeGreaterThan(10);

    // A page from the middle, asked for again, reads the same events (offsets remembered or not).
    const again = await viewer.ok('session:history', { sessionId: session.id, beforeSeq: 1000, limit: 7 });
    expect(again.events.map((e) => e.seq)).toEqual([993, 994, 995, 996, 997, 998, 999]);
    expect(again.hasMore).toBe(true);
    const start = await viewer.ok('session:history', { sessionId: session.id, beforeSeq: 3, limit: 50 });
    expect(start.events.map((e) => e.seq)).toEqual([1, 2]);
    expect(start.hasMore).toBe(false);

    // Live events follow the tail with no gap.
    release();
    const done = await viewer.waitFor((e) => e.type === 'turn_done');
    const persisted = viewer.events.filter((e: SessionEvent) => !e.ephemeral && e.seq <= done.seq).map((e) => e.seq);
    expect(persisted[0]).toBe(halfway.seq + 1);
    expect(persisted).toEqual(Array.from({ length: done.seq - halfway.seq }, (_, i) => halfway.seq + 1 + i));
  });

  it('a tail longer than the log is the whole log with hasMore false; without tail the ack is unchanged', async () => {
    server = await startTestServer({ engine: { runTurn: longTurn(10, Promise.resolve()) }, modelFactory: idleModelFactory });
    const driver = await server.connect('driver');
    const { session } = await driver.ok('session:create', {});
    await driver.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await driver.ok('session:send', { sessionId: session.id, text: 'short' });
    const done = await driver.waitFor((e) => e.type === 'turn_done');

    const viewer = await server.connect('viewer');
    const attached = await viewer.ok('session:attach', { sessionId: session.id, role: 'viewer', tail: 500 });
    expect(attached.hasMore).toBe(false);
    expect(attached.firstSeq).toBe(1);
    expect(attached.events.map((e) => e.seq)).toEqual(Array.from({ length: attached.events.length }, (_, i) => i + 1));
    expect(attached.events.at(-1)!.seq).toBeGreaterThanOrEqual(done.seq);

    // afterSeq: 0 is a first attach too: the tail applies.
    const zero = await viewer.ok('session:attach', { sessionId: session.id, role: 'viewer', afterSeq: 0, tail: 3 });
    expect(zero.events.filter((e) => e.seq >= zero.firstSeq!)).toHaveLength(3);
    expect(zero.hasMore).toBe(true);

    const old = await server.connect('old-client');
    const full = await old.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    expect(full.hasMore).toBeUndefined();
    expect(full.firstSeq).toBeUndefined();
    expect(full.events[0]?.seq).toBe(1);

    const bad = await old.socket.timeout(5000).emitWithAck('session:history', { sessionId: session.id, beforeSeq: 0, limit: 10 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});
