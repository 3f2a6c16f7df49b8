import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { readEventsBefore } from './event-log-reader.js';
import { SessionLog } from './session-log.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('tandem-log-pages-');
});
afterEach(async () => {
  await dir.cleanup();
});

/** Lines of uneven length with multi-byte characters, some longer than the reader's 64 KB chunk. */
function event(seq: number): SessionEvent {
  const data = seq % 97 === 0 ? 'é'.repeat(40_000) : `ligne ${seq} ✓ ${'·'.repeat(seq % 300)}`;
  return { sessionId: 's', seq, ts: '2026-01-01T00:00:00.000Z', type: 'command_output', callId: 'c', data };
}

describe('SessionLog pages (before / last)', () => {
  it('pages up a log far larger than its memory tail with no gap and no duplicate', async () => {
    const path = join(dir.path, 'events.jsonl');
    const log = new SessionLog(path, () => undefined, 50);
    for (let i = 1; i <= 1500; i++) log.append(event(i));
    await log.flush();
    const last = await log.last(40);
    expect(last.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => 1461 + i));
    expect(last[5]).toEqual(event(1466));
    const seen: number[] = last.map((e) => e.seq);
    let before = last[0]!.seq;
    while (log.hasBefore(before)) {
      const page = await log.before(before, 73);
      expect(page.length).toBeGreaterThan(0);
      expect(page.length).toBeLessThanOrEqual(73);
      seen.unshift(...page.map((e) => e.seq));
      before = page[0]!.seq;
    }
    expect(seen).toEqual(Array.from({ length: 1500 }, (_, i) => i + 1));
    // Events written after a page was read do not disturb the next page.
    log.append(event(1501));
    await log.flush();
    expect((await log.before(200, 3)).map((e) => e.seq)).toEqual([197, 198, 199]);
    await log.close();

    // Loaded again: a page anywhere starts from the nearest offset kept at load, and reads the same events.
    const loaded = new SessionLog(path, () => undefined, 50);
    await loaded.load(() => undefined);
    for (const before of [2, 499, 500, 501, 777, 1001, 1460]) {
      const page = await loaded.before(before, 60);
      const from = Math.max(1, before - 60);
      expect(page.map((e) => e.seq)).toEqual(Array.from({ length: before - from }, (_, i) => from + i));
      expect(page.at(-1)).toEqual(event(before - 1));
    }
    await loaded.close();
  });

  it('after a load, pages skip a damaged line and stop at the first event', async () => {
    const path = join(dir.path, 'events.jsonl');
    const lines = Array.from({ length: 30 }, (_, i) => JSON.stringify(event(i + 5)));
    lines.splice(10, 0, '{"sessionId":"s","seq":99,"ty');
    await writeFile(path, `${lines.join('\n')}\n`);
    const log = new SessionLog(path, () => undefined, 5);
    await log.load(() => undefined);
    expect(log.hasBefore(5)).toBe(false);
    expect(log.hasBefore(6)).toBe(true);
    const page = await log.before(20, 100);
    expect(page.map((e) => e.seq)).toEqual(Array.from({ length: 15 }, (_, i) => i + 5));
    await log.close();
  });

  it('never returns a line the writer has not handed over (seq above maxSeq)', async () => {
    const path = join(dir.path, 'events.jsonl');
    await writeFile(path, `${[1, 2, 3].map((s) => JSON.stringify(event(s))).join('\n')}\n`);
    await appendFile(path, `${JSON.stringify(event(4))}\n`);
    const page = await readEventsBefore(path, { beforeSeq: 10, limit: 10, maxSeq: 3 });
    expect(page.events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(page.offset).toBe(0);
    expect(await readEventsBefore(join(dir.path, 'missing.jsonl'), { beforeSeq: 10, limit: 10, maxSeq: 10 })).toEqual({ events: [], offset: 0 });
  });
});
