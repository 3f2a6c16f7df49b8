import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { EventLogWriter } from './event-log-writer.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('tandem-writer-');
});
afterEach(async () => {
  await dir.cleanup();
});

const line = (n: number) => JSON.stringify({ seq: n, type: 'command_output', data: `line ${n}` });

function linesOf(text: string): number[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return (JSON.parse(l) as { seq: number }).seq;
      } catch {
        return -1;
      }
    });
}

describe('EventLogWriter (group commit)', () => {
  it('writes a burst in one write and hands each item over only after its line is on disk', async () => {
    const path = join(dir.path, 'nested', 'events.jsonl');
    const errors: Error[] = [];
    const released: Array<{ item: number; onDisk: number[] }> = [];
    const writer = new EventLogWriter<number>(
      path,
      (e) => errors.push(e),
      (items) => {
        const onDisk = linesOf(readFileSync(path, 'utf8'));
        for (const item of items) released.push({ item, onDisk });
      },
    );
    const writes: number[] = [];
    const original = writer['write'].bind(writer);
    writer['write'] = async (chunk: string) => {
      writes.push(chunk.split('\n').length - 1);
      return original(chunk);
    };
    for (let i = 1; i <= 500; i++) writer.append(line(i), i);
    expect(released).toEqual([]);
    await writer.flush();
    expect(writes).toEqual([500]);
    expect(released.map((r) => r.item)).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    for (const r of released) expect(r.onDisk).toContain(r.item);
    writer.append(line(501), 501);
    await writer.close();
    expect(linesOf(await readFile(path, 'utf8'))).toEqual(Array.from({ length: 501 }, (_, i) => i + 1));
    expect(released.at(-1)?.item).toBe(501);
    expect(errors).toEqual([]);
    expect(() => writer.append('{}')).toThrow(/closed/);
  });

  it('batches what arrives during a write into the next one, keeping the order of every item', async () => {
    const path = join(dir.path, 'events.jsonl');
    const released: string[] = [];
    const writer = new EventLogWriter<string>(
      path,
      () => undefined,
      (items) => released.push(...items),
    );
    const writes: number[] = [];
    const original = writer['write'].bind(writer);
    let inFlight: (() => void) | undefined;
    writer['write'] = async (chunk: string) => {
      writes.push(chunk.split('\n').length - 1);
      if (writes.length === 1) {
        // While the first write is in flight, more lines and an ephemeral item arrive.
        inFlight?.();
      }
      return original(chunk);
    };
    const during = new Promise<void>((resolve) => {
      inFlight = () => {
        writer.append(line(2), 'p2');
        writer.after('e2');
        writer.append(line(3), 'p3');
        resolve();
      };
    });
    writer.append(line(1), 'p1');
    writer.after('e1');
    await during;
    await writer.flush();
    expect(writes).toEqual([1, 2]);
    expect(released).toEqual(['p1', 'e1', 'p2', 'e2', 'p3']);
    // Idle: an ephemeral item goes out at once, synchronously.
    writer.after('e3');
    expect(released.at(-1)).toBe('e3');
    await writer.close();
  });

  it('holds items back while the disk fails, reports once, and writes everything in order once it recovers', async () => {
    const parent = join(dir.path, 'blocked');
    await writeFile(parent, 'a file where the log directory should be');
    const path = join(parent, 'events.jsonl');
    const errors: Error[] = [];
    const released: number[] = [];
    let failed!: () => void;
    const firstFailure = new Promise<void>((resolve) => (failed = resolve));
    const writer = new EventLogWriter<number>(
      path,
      (e) => {
        errors.push(e);
        failed();
      },
      (items) => released.push(...items),
    );
    writer.append(line(1), 1);
    writer.append(line(2), 2);
    await firstFailure;
    writer.append(line(3), 3);
    writer.after(33);
    expect(released).toEqual([]);
    // The disk comes back: the retries write every line, in order, and only then hand them over.
    await rm(parent);
    await mkdir(parent, { recursive: true });
    await writer.flush();
    expect(released).toEqual([1, 2, 3, 33]);
    expect(linesOf(await readFile(path, 'utf8'))).toEqual([1, 2, 3]);
    expect(errors).toHaveLength(1);
    await writer.close();
  });

  it('starts on a fresh line after a failed write, so a half-written line cannot swallow the next event', async () => {
    const path = join(dir.path, 'events.jsonl');
    const released: number[] = [];
    const writer = new EventLogWriter<number>(
      path,
      () => undefined,
      (items) => released.push(...items),
    );
    const original = writer['write'].bind(writer);
    let attempts = 0;
    writer['write'] = async (chunk: string) => {
      attempts++;
      if (attempts === 1) {
        // A write that dies half-way: part of the chunk reached the file.
        await writeFile(path, chunk.slice(0, 10));
        writer['brokenLine'] = true;
        return false;
      }
      return original(chunk);
    };
    writer.append(line(1), 1);
    await writer.flush();
    expect(released).toEqual([1]);
    expect(linesOf(await readFile(path, 'utf8'))).toEqual([-1, 1]);
    await writer.close();
  });

  it('gives up on close when the disk still fails, saying how many events were lost, without handing them over', async () => {
    const parent = join(dir.path, 'blocked');
    await writeFile(parent, 'not a directory');
    const errors: Error[] = [];
    const released: number[] = [];
    const writer = new EventLogWriter<number>(
      join(parent, 'events.jsonl'),
      (e) => errors.push(e),
      (items) => released.push(...items),
    );
    writer.append(line(1), 1);
    writer.append(line(2), 2);
    await writer.close();
    expect(released).toEqual([]);
    expect(errors.map((e) => e.message).join('\n')).toMatch(/2 event\(s\) could not be written/);
  });
});
