import { readFileSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { SessionLog } from './session-log.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('tandem-log-');
});
afterEach(async () => {
  await dir.cleanup();
});

function event(seq: number): SessionEvent {
  return { sessionId: 's', seq, ts: '2026-01-01T00:00:00.000Z', type: 'command_output', callId: 'c', data: `line ${seq}` };
}

describe('SessionLog', () => {
  it('replays from memory for recent seqs and from the file for older ones', async () => {
    const path = join(dir.path, 'events.jsonl');
    const log = new SessionLog(path, () => undefined, 10);
    for (let i = 1; i <= 50; i++) log.append(event(i));
    // Nothing is visible before it is written.
    expect(log.tailAfter(0)).toEqual([]);
    expect(log.lastWrittenSeq).toBe(0);
    await log.flush();
    expect(log.lastWrittenSeq).toBe(50);
    expect(log.tailAfter(0).map((e) => e.seq)).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
    expect((await log.after(45)).map((e) => e.seq)).toEqual([46, 47, 48, 49, 50]);
    const old = await log.after(5);
    expect(old.map((e) => e.seq)).toEqual(Array.from({ length: 45 }, (_, i) => i + 6));
    expect(await log.after(50)).toEqual([]);
    await log.close();
  });

  it('loads a log, skipping a truncated last line and out-of-order seqs with a warning', async () => {
    const path = join(dir.path, 'events.jsonl');
    await writeFile(path, [event(1), event(2), event(2), event(3)].map((e) => JSON.stringify(e)).join('\n') + '\n');
    await appendFile(path, '{"sessionId":"s","seq":4,"ty');
    const problems: string[] = [];
    const log = new SessionLog(path, (m) => problems.push(m));
    const seen: number[] = [];
    const last = await log.load((e) => seen.push(e.seq));
    expect(last).toBe(3);
    expect(seen).toEqual([1, 2, 3]);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/not a complete event/);
    expect(problems.join('\n')).toMatch(/removed an unfinished last line/);
    // The next event starts on a line of its own and survives the next load.
    log.append(event(4));
    await log.close();
    const again = new SessionLog(path, () => undefined);
    const reread: number[] = [];
    expect(await again.load((e) => reread.push(e.seq))).toBe(4);
    expect(reread).toEqual([1, 2, 3, 4]);
    await again.close();
  });

  it('shows an event (listener, tail, replay) only once its line is in the file, ephemeral ones behind it', async () => {
    const path = join(dir.path, 'events.jsonl');
    const log = new SessionLog(path, () => undefined);
    const seen: Array<{ seq: number; ephemeral: boolean; linesOnDisk: number }> = [];
    log.onVisible((e) => {
      const onDisk = readFileSync(path, 'utf8').split('\n').filter(Boolean).length;
      seen.push({ seq: e.seq, ephemeral: e.ephemeral === true, linesOnDisk: onDisk });
    });
    log.append(event(1));
    log.append(event(2));
    const delta: SessionEvent = { sessionId: 's', seq: 2, ts: '2026-01-01T00:00:00.000Z', ephemeral: true, type: 'text_delta', turnId: 't', delta: 'x' };
    log.send(delta);
    log.append(event(3));
    expect(seen).toEqual([]);
    expect(await log.after(0)).toEqual([]);
    await log.flush();
    expect(seen.map((s) => [s.seq, s.ephemeral])).toEqual([
      [1, false],
      [2, false],
      [2, true],
      [3, false],
    ]);
    // Each event's line was on disk when it became visible.
    for (const s of seen.filter((s) => !s.ephemeral)) expect(s.linesOnDisk).toBeGreaterThanOrEqual(s.seq);
    expect((await log.after(0)).map((e) => e.seq)).toEqual([1, 2, 3]);
    // With nothing outstanding an ephemeral event is visible at once.
    log.send({ ...delta, seq: 3 });
    expect(seen.at(-1)).toMatchObject({ seq: 3, ephemeral: true });
    await log.close();
  });

  it('reads a missing file as an empty log', async () => {
    const log = new SessionLog(join(dir.path, 'none.jsonl'), () => undefined);
    expect(await log.load(() => undefined)).toBe(0);
    expect(await log.after(0)).toEqual([]);
    await log.close();
  });
});
