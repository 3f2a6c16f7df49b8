import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationBuilder } from '@tandem/core';
import type { SessionEvent } from '@tandem/shared';
import { AgentSlices } from '../agents/agent-slices.js';
import type { ConversationFold, SessionEngine } from './engine.js';
import { loadSessionState } from './load-session-state.js';
import { sessionEvents } from './session-events.test-helper.js';
import { SessionLog } from './session-log.js';
import { snapshotPath } from './session-snapshot.js';
import { SessionStateFold } from './session-state-fold.js';
import { SnapshotWriter } from './snapshot-writer.js';

const engine = {
  createConversation: () => new ConversationBuilder(),
  restoreConversation: (state: unknown) => ConversationBuilder.restore(state),
} as unknown as SessionEngine;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-snapshot-writer-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A live session's wiring: the conversation folds at append (stamp) time, the state fold and the writer once written. */
function liveLog(create: () => ConversationFold, every: number) {
  const log = new SessionLog(join(dir, 'events.jsonl'), () => undefined);
  const conversation = new AgentSlices(create);
  const state = new SessionStateFold();
  const written: number[] = [];
  let wrote: () => void = () => undefined;
  const writer = new SnapshotWriter({
    file: snapshotPath(dir),
    log,
    conversation,
    state,
    coveredSeq: 0,
    every,
    onProblem: (m) => {
      throw new Error(m);
    },
    onWritten: (seq) => {
      written.push(seq);
      wrote();
    },
  });
  log.onVisible((event) => {
    state.observe(event);
    writer.observe(event);
  });
  const append = (event: SessionEvent) => {
    log.append(event);
    conversation.apply(event);
  };
  const nextWrite = () => new Promise<void>((resolve) => (wrote = resolve));
  return { log, writer, written, append, nextWrite };
}

describe('SnapshotWriter', () => {
  it('writes one per `every` written events, at a point the log and the folds agree on', async () => {
    const events = sessionEvents(30, true);
    const live = liveLog(() => new ConversationBuilder(), 200);
    const first = live.nextWrite();
    for (const event of events.slice(0, 250)) live.append(event);
    await live.log.flush();
    await first;
    expect(live.written).toHaveLength(1);
    expect(live.written[0]).toBe(250);
    // Fewer than `every` more events: no new snapshot.
    for (const event of events.slice(250, 400)) live.append(event);
    await live.log.flush();
    const second = live.nextWrite();
    for (const event of events.slice(400)) live.append(event);
    await live.log.flush();
    await second;
    expect(live.written).toEqual([250, events.length]);

    const viaSnapshot = await loadSessionState(new SessionLog(live.log.path, () => undefined), engine, snapshotPath(dir));
    const whole = await loadSessionState(new SessionLog(live.log.path, () => undefined), engine);
    expect(viaSnapshot.snapshotSeq).toBe(events.length);
    expect(viaSnapshot.conversation.messages).toStrictEqual(whole.conversation.messages);
    expect(viaSnapshot.state.snapshot()).toEqual(whole.state.snapshot());
    await live.log.close();
  });

  it('the log offers no snapshot while an appended event is not written yet', async () => {
    const [a, b] = sessionEvents(1, false);
    const live = liveLog(() => new ConversationBuilder(), 1000);
    live.append(a!);
    await live.log.flush();
    expect(live.log.snapshot()).toMatchObject({ seq: 1, ts: a!.ts });
    live.append(b!);
    expect(live.log.snapshot()).toBeUndefined();
    await live.log.flush();
    expect(live.log.snapshot()).toMatchObject({ seq: 2, ts: b!.ts });
    await live.log.close();
  });

  it('finish writes a last one after the log closed; a conversation that cannot be snapshotted never gets one', async () => {
    const events = sessionEvents(5, false);
    const live = liveLog(() => new ConversationBuilder(), 3);
    for (const event of events.slice(0, 5)) live.append(event);
    await live.log.close();
    await live.writer.finish();
    expect(live.written).toEqual([5]);
    expect(JSON.parse(await readFile(snapshotPath(dir), 'utf8')).log.seq).toBe(5);
    await rm(snapshotPath(dir));

    const plain = liveLog(() => ({ apply: () => undefined, messages: [] }), 10);
    for (const event of events) plain.append(event);
    await plain.log.close();
    await plain.writer.finish();
    expect(plain.written).toEqual([]);
  });
});
