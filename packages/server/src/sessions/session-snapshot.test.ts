import { appendFile, mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationBuilder } from '@tandem/core';
import type { SessionEvent } from '@tandem/shared';
import type { SessionEngine } from './engine.js';
import { loadSessionState, type LoadResult } from './load-session-state.js';
import { SessionLog } from './session-log.js';
import { sessionEvents, sessionLines as lines } from './session-events.test-helper.js';
import { snapshotPath } from './session-snapshot.js';
import { SnapshotWriter } from './snapshot-writer.js';

const engine = {
  createConversation: () => new ConversationBuilder(),
  restoreConversation: (state: unknown) => ConversationBuilder.restore(state),
} as unknown as SessionEngine;

let dir: string;
let logPath: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-snapshot-'));
  logPath = join(dir, 'events.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Loaded {
  result: LoadResult;
  log: SessionLog;
  problems: string[];
  ignored: string[];
}

async function load(useSnapshot: boolean, tailSize = 50): Promise<Loaded> {
  const problems: string[] = [];
  const ignored: string[] = [];
  const log = new SessionLog(logPath, (m) => problems.push(m), tailSize);
  const result = await loadSessionState(log, engine, useSnapshot ? snapshotPath(dir) : undefined, (m) => ignored.push(m));
  return { result, log, problems, ignored };
}

/** Loads the log as it is now (whole) and leaves a snapshot of it, as a closing server does. */
async function snapshotNow(): Promise<void> {
  const { result, log } = await load(false);
  const writer = new SnapshotWriter({
    file: snapshotPath(dir),
    log,
    conversation: result.conversation,
    state: result.state,
    coveredSeq: 0,
    onProblem: () => undefined,
    every: 1,
  });
  await log.close();
  await writer.finish();
}

/** Everything a session and an attaching client get from a load, to compare two loads. */
async function observable({ result, log }: Loaded) {
  const pages: SessionEvent[][] = [];
  for (const before of [result.lastSeq + 1, Math.floor(result.lastSeq / 2), 40, 3]) pages.push(await log.before(before, 30));
  return {
    lastSeq: result.lastSeq,
    written: log.lastWrittenSeq,
    granted: result.granted,
    openTurnId: result.openTurnId,
    info: result.info,
    permissionEvents: result.permissionEvents,
    stalePresence: result.stalePresence,
    floor: result.conversation.floor,
    commander: result.conversation.messages,
    reviewer: result.conversation.messagesOf('reviewer'),
    inEffect: log.inEffectBefore(result.lastSeq + 1),
    inEffectMid: log.inEffectBefore(result.lastSeq - 10),
    tail: log.tailAfter(0),
    after: await log.after(result.lastSeq - 70),
    pages,
    hasBefore: [log.hasBefore(1), log.hasBefore(2)],
  };
}

describe('session snapshots', () => {
  it('snapshot + the log after it load exactly what the whole log does', async () => {
    const all = sessionEvents(40, true);
    const cut = Math.floor(all.length * 0.6);
    await writeFile(logPath, lines(all.slice(0, cut)));
    await snapshotNow();
    await appendFile(logPath, lines(all.slice(cut)));

    const viaSnapshot = await load(true);
    const whole = await load(false);
    expect(viaSnapshot.result.snapshotSeq).toBe(cut);
    expect(viaSnapshot.ignored).toEqual([]);
    const a = await observable(viaSnapshot);
    const b = await observable(whole);
    expect(a).toStrictEqual(b);
    // The fixture reaches every part: an open turn, a dangling question, grants, both agents' slices.
    expect(b.openTurnId).toBe('open');
    expect(b.permissionEvents).toEqual([{ type: 'permission_request', requestId: 'dangling' }]);
    expect(b.granted).toEqual(['/granted/5', '/granted/10', '/granted/15', '/granted/20', '/granted/25', '/granted/30', '/granted/35', '/granted/40']);
    expect(b.reviewer.length).toBeGreaterThan(10);
    expect(b.inEffect.map((e) => e.type)).toEqual(expect.arrayContaining(['turn_started', 'presence', 'context_usage', 'floor_changed', 'job_started']));
  });

  it('a snapshot of the whole log needs no log line at all', async () => {
    await writeFile(logPath, lines(sessionEvents(20, false)));
    await snapshotNow();
    const viaSnapshot = await load(true);
    expect(viaSnapshot.result.snapshotSeq).toBe(viaSnapshot.result.lastSeq);
    expect(await observable(viaSnapshot)).toStrictEqual(await observable(await load(false)));
  });

  it.each([
    ['damaged JSON', (text: string) => `${text.slice(0, 100)}#${text.slice(101)}`, /not valid JSON/],
    ['cut short', (text: string) => text.slice(0, Math.floor(text.length / 2)), /not valid JSON/],
    ['another version', (text: string) => text.replace('"version":1', '"version":99'), /version 99/],
    ['a malformed conversation', (text: string) => text.replace('"role":"user"', '"role":"robot"'), /role/],
    [
      'an offset inside a line',
      (text: string) => text.replace(/"checkpoints":\[(\[\d+,\d+\],?)*\]/, '"checkpoints":[]').replace(/"offset":(\d+)/, (_, n) => `"offset":${Number(n) - 5}`),
      /does not end with event/,
    ],
    ['a checkpoint past its offset', (text: string) => text.replace(/"offset":(\d+)/, (_, n) => `"offset":${Number(n) - 5}`), /checkpoints are malformed/],
    [
      'a log that is not the one it covered',
      (text: string) => text.replace(/"ts":"[^"]+","offset"/, '"ts":"1999-01-01T00:00:00Z","offset"'),
      /does not end with event/,
    ],
  ])('a snapshot with %s is ignored and the whole log read, with identical results', async (_name, damage, reason) => {
    const all = sessionEvents(30, true);
    await writeFile(logPath, lines(all.slice(0, 300)));
    await snapshotNow();
    await appendFile(logPath, lines(all.slice(300)));
    const file = snapshotPath(dir);
    await writeFile(file, damage(await readFile(file, 'utf8')));

    const viaSnapshot = await load(true);
    expect(viaSnapshot.result.snapshotSeq).toBe(0);
    expect(viaSnapshot.ignored).toEqual([expect.stringMatching(reason)]);
    expect(await observable(viaSnapshot)).toStrictEqual(await observable(await load(false)));
  });

  it('a log cut mid-line after the snapshot loads like the whole log, and is repaired', async () => {
    const all = sessionEvents(30, true);
    await writeFile(logPath, lines(all.slice(0, 300)));
    await snapshotNow();
    const rest = lines(all.slice(300));
    await appendFile(logPath, rest.slice(0, rest.length - 25));
    const copy = `${logPath}.copy`;
    await writeFile(copy, await readFile(logPath));

    const viaSnapshot = await load(true);
    expect(viaSnapshot.result.snapshotSeq).toBe(300);
    expect(viaSnapshot.problems.at(-1)).toMatch(/removed an unfinished last line/);
    expect((await readFile(logPath, 'utf8')).endsWith('\n')).toBe(true);
    const a = await observable(viaSnapshot);
    await writeFile(logPath, await readFile(copy));
    const b = await observable(await load(false));
    expect(a).toStrictEqual(b);
    expect(a.lastSeq).toBe(all.length - 1);
  });

  it('a snapshot ahead of a log a crash cut short is ignored; the repaired log is what loads', async () => {
    const all = sessionEvents(30, false);
    await writeFile(logPath, lines(all));
    await snapshotNow();
    // The log loses its last events (never synced), the last kept line cut in half.
    const kept = Buffer.byteLength(lines(all.slice(0, 250))) - 30;
    await truncate(logPath, kept);
    const copy = `${logPath}.copy`;
    await writeFile(copy, await readFile(logPath));

    const viaSnapshot = await load(true);
    expect(viaSnapshot.result.snapshotSeq).toBe(0);
    expect(viaSnapshot.ignored).toEqual([expect.stringMatching(/it covers \d+ bytes, the log has \d+/)]);
    expect(viaSnapshot.result.lastSeq).toBe(249);
    expect((await stat(logPath)).size).toBe(Buffer.byteLength(lines(all.slice(0, 249))));
    const a = await observable(viaSnapshot);
    await writeFile(logPath, await readFile(copy));
    expect(a).toStrictEqual(await observable(await load(false)));
  });

  it('a snapshot ahead of a log cut at a line end and then written on is ignored', async () => {
    const all = sessionEvents(30, false);
    await writeFile(logPath, lines(all.slice(0, 300)));
    await snapshotNow();
    // A power loss drops the last 20 events; a server appends others with the same seqs and more.
    const other = all.slice(280).map((e) => ({ ...e, ts: '2027-01-01T00:00:00Z' }));
    await truncate(logPath, Buffer.byteLength(lines(all.slice(0, 280))));
    await appendFile(logPath, lines(other));
    const viaSnapshot = await load(true);
    expect(viaSnapshot.ignored).toEqual([expect.stringMatching(/does not end with event 300/)]);
    expect(await observable(viaSnapshot)).toStrictEqual(await observable(await load(false)));
  });
});
