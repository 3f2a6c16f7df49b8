import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '@tandem/ai';
import type { SessionEvent } from '@tandem/shared';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { EventPipeline } from './event-pipeline.js';
import { SessionLog } from './session-log.js';

let dir: TempDir;
let log: SessionLog;
let pipeline: EventPipeline;
beforeEach(async () => {
  dir = await makeTempDir('tandem-pipeline-');
  log = new SessionLog(join(dir.path, 'events.jsonl'), () => undefined);
  pipeline = new EventPipeline({ sessionId: 's', log, clock: systemClock, logger: pino({ level: 'silent' }), lastSeq: 0 });
});
afterEach(async () => {
  await pipeline.close();
  await dir.cleanup();
});

describe('EventPipeline', () => {
  it('refuses an event before its subscribers are registered, and a second registration', () => {
    expect(() => pipeline.emit({ type: 'presence', clients: [] })).toThrow(/before the event pipeline's subscribers were registered/);
    pipeline.subscribe({ stamped: [], visible: [] });
    expect(() => pipeline.subscribe({ stamped: [], visible: [] })).toThrow(/registered already/);
  });

  it('tells the stamped subscribers in list order inside emit, an event emitted by one before the next subscriber, and the visible ones once written', async () => {
    const told: string[] = [];
    pipeline.subscribe({
      stamped: [
        (e) => {
          told.push(`fold:${e.seq}`);
          // A subscriber that emits (the owner starting the next turn) has its event folded at once.
          if (e.seq === 1) pipeline.emit({ type: 'presence', clients: [] });
        },
        (e) => told.push(`owner:${e.seq}`),
      ],
      visible: [(e: SessionEvent) => told.push(`visible:${e.seq}`)],
    });
    pipeline.emit({ type: 'presence', clients: [] });
    expect(told).toEqual(['fold:1', 'fold:2', 'owner:2', 'owner:1']);
    await pipeline.flushed();
    expect(told.slice(4)).toEqual(['visible:1', 'visible:2']);
  });
});
