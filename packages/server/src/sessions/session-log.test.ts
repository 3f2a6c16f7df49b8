import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { EventLogWriter } from './event-log-writer.js';
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

describe('EventLogWriter', () => {
  it('batches a burst of appends into one write and loses nothing on close', async () => {
    const path = join(dir.path, 'nested', 'events.jsonl');
    const errors: Error[] = [];
    const writer = new EventLogWriter(path, (e) => errors.push(e));
    const writes: number[] = [];
    const original = writer['write'].bind(writer);
    writer['write'] = async (chunk: string) => {
      writes.push(chunk.split('\n').length - 1);
      return original(chunk);
    };
    for (let i = 1; i <= 500; i++) writer.append(JSON.stringify(event(i)));
    await writer.flush();
    expect(writes).toEqual([500]);
    writer.append(JSON.stringify(event(501)));
    await writer.close();
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(501);
    expect(JSON.parse(lines[500]!).seq).toBe(501);
    expect(errors).toEqual([]);
    expect(() => writer.append('{}')).toThrow(/closed/);
  });

  it('reports a failing disk once instead of throwing at the caller', async () => {
    await writeFile(join(dir.path, 'file'), 'x');
    const errors: Error[] = [];
    const writer = new EventLogWriter(join(dir.path, 'file', 'events.jsonl'), (e) => errors.push(e));
    writer.append('{"seq":1}');
    await writer.flush();
    writer.append('{"seq":2}');
    await writer.flush();
    expect(errors).toHaveLength(1);
  });
});

describe('SessionLog', () => {
  it('replays from memory for recent seqs and from the file for older ones', async () => {
    const path = join(dir.path, 'events.jsonl');
    const log = new SessionLog(path, () => undefined, 10);
    for (let i = 1; i <= 50; i++) log.append(event(i));
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

  it('reads a missing file as an empty log', async () => {
    const log = new SessionLog(join(dir.path, 'none.jsonl'), () => undefined);
    expect(await log.load(() => undefined)).toBe(0);
    expect(await log.after(0)).toEqual([]);
    await log.close();
  });
});
