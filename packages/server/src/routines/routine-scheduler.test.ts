import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock, makeTempDir, until, type TempDir } from '@tandem/testkit';
import type { SessionStatus } from '@tandem/shared';
import { RoutineScheduler, type RoutineSession } from './routine-scheduler.js';
import { RoutineStore, type Routine } from './routine-store.js';

// 2026-12-02T08:00:00Z, a Wednesday.
const START = Date.UTC(2026, 11, 2, 8, 0, 0);

class FakeSession implements RoutineSession {
  status: SessionStatus = 'idle';
  readonly sent: Array<{ text: string; by: string }> = [];
  onSend?: () => void;
  readonly turns = {
    send: (text: string, by: string) => {
      this.onSend?.();
      this.sent.push({ text, by });
      return 'turn';
    },
  };
}

let dir: TempDir | undefined;
let scheduler: RoutineScheduler | undefined;

afterEach(async () => {
  await scheduler?.stop();
  scheduler = undefined;
  await dir?.cleanup();
});

async function setUp(options: { routines?: Routine[]; sessions?: Record<string, FakeSession>; graceMs?: number } = {}) {
  dir = await makeTempDir('tandem-routines-');
  if (options.routines) await writeFile(join(dir.path, 'routines.json'), JSON.stringify({ routines: options.routines }));
  const clock = new FakeClock(START);
  const sessions = options.sessions ?? { s1: new FakeSession() };
  const store = new RoutineStore(dir.path);
  scheduler = new RoutineScheduler({
    store,
    clock,
    sessions: { get: (id) => sessions[id] },
    graceMs: options.graceMs ?? 10 * 60_000,
    defaultTimezone: 'Europe/Berlin',
    logger: pino({ level: 'silent' }),
  });
  await scheduler.start();
  const onDisk = async () => (JSON.parse(await readFile(join(dir!.path, 'routines.json'), 'utf8')) as { routines: Routine[] }).routines;
  return { clock, sessions, scheduler, store, onDisk, s1: sessions.s1! };
}

const stored = (over: Partial<Routine>): Routine => ({
  id: 'r-1',
  name: 'inbox',
  schedule: '0 9 * * 1-5',
  prompt: 'summarise my inbox',
  timezone: 'Europe/Berlin',
  sessionId: 's1',
  createdAt: new Date(START - 86_400_000).toISOString(),
  createdBy: 'ana',
  status: 'active',
  runs: [],
  ...over,
});

describe('routines: schedules', () => {
  it('answers a new routine with its schedule in words and the next three runs in its zone', async () => {
    const { scheduler } = await setUp();
    const { routine, nextRuns } = await scheduler.create({ name: 'inbox', schedule: '0 9 * * 1-5', prompt: 'summarise my inbox' }, 's1', 'model');
    expect(routine.description).toBe('At 09:00, Monday through Friday');
    expect(routine.timezone).toBe('Europe/Berlin');
    // 09:00 in Berlin is now (Wednesday); the next are Thursday, Friday and Monday.
    expect(nextRuns).toEqual(['2026-12-03T09:00:00+01:00', '2026-12-04T09:00:00+01:00', '2026-12-07T09:00:00+01:00']);
    const every = await scheduler.create({ name: 'tick', schedule: '*/2 * * * * *', prompt: 'x', timezone: 'UTC' }, 's1', 'model');
    expect(every.routine.description).toBe('Every 2 seconds');
    expect(every.nextRuns).toEqual(['2026-12-02T08:00:02+00:00', '2026-12-02T08:00:04+00:00', '2026-12-02T08:00:06+00:00']);
    const once = await scheduler.create({ name: 'once', schedule: '2026-12-24T18:00', prompt: 'x' }, 's1', 'model');
    expect(once.nextRuns).toEqual(['2026-12-24T18:00:00+01:00']);
  });

  it('refuses a bad schedule, zone, past time or duplicate name with a sentence that says what to fix', async () => {
    const { scheduler } = await setUp();
    await expect(scheduler.create({ name: 'a', schedule: '0 9 * *', prompt: 'x' }, 's1', 'm')).rejects.toThrow(
      'has 4 fields; a schedule is a cron expression of 5 fields',
    );
    await expect(scheduler.create({ name: 'a', schedule: '61 9 * * *', prompt: 'x' }, 's1', 'm')).rejects.toThrow(
      'is not a valid schedule: Invalid value for minute: 61',
    );
    await expect(scheduler.create({ name: 'a', schedule: '0 9 * * *', prompt: 'x', timezone: 'Mars/Base' }, 's1', 'm')).rejects.toThrow(
      '"Mars/Base" is not an IANA time zone',
    );
    await expect(scheduler.create({ name: 'a', schedule: '2020-01-01T09:00', prompt: 'x' }, 's1', 'm')).rejects.toThrow('never runs again');
    await scheduler.create({ name: 'a', schedule: '0 9 * * *', prompt: 'x' }, 's1', 'm');
    await expect(scheduler.create({ name: 'a', schedule: '0 10 * * *', prompt: 'y' }, 's1', 'm')).rejects.toThrow('a routine named "a" already exists');
  });
});

describe('routines: runs', () => {
  it('runs the prompt as a turn by routine:NAME when due, then waits for the next run; a cancelled one never runs', async () => {
    const { clock, s1, scheduler, store, onDisk } = await setUp();
    const { routine } = await scheduler.create({ name: 'tick', schedule: '*/10 * * * * *', prompt: 'check the build', timezone: 'UTC' }, 's1', 'model');
    const other = await scheduler.create({ name: 'never', schedule: '*/10 * * * * *', prompt: 'no', timezone: 'UTC' }, 's1', 'model');
    await scheduler.cancel(other.routine.id, 'ana');
    await clock.waitForSleepers(1);
    await clock.advance(10_000);
    await until(() => s1.sent.length === 1, 'the first run');
    expect(s1.sent[0]).toEqual({ text: 'check the build', by: 'routine:tick' });
    await until(() => scheduler.list().find((r) => r.id === routine.id)?.nextRunAt === '2026-12-02T08:00:20+00:00', 'the next run time');
    await clock.waitForSleepers(1);
    await clock.advance(10_000);
    await until(() => s1.sent.length === 2, 'the second run');
    expect(s1.sent.every((m) => m.by === 'routine:tick')).toBe(true);
    await until(() => store.get(routine.id)?.runs.filter((r) => r.outcome === 'ran').length === 2, 'both runs recorded');
    const disk = await onDisk();
    expect(disk.find((r) => r.id === other.routine.id)?.status).toBe('cancelled');
    expect(disk.find((r) => r.id === routine.id)?.runs.map((r) => r.outcome)).toEqual(['ran', 'ran']);
  });

  it('claims a run on disk before its turn starts, so a crash cannot run it twice', async () => {
    const { clock, s1, scheduler, onDisk } = await setUp();
    await scheduler.create({ name: 'tick', schedule: '*/10 * * * * *', prompt: 'p', timezone: 'UTC' }, 's1', 'model');
    let atSend: Routine | undefined;
    s1.onSend = () => void onDisk().then((r) => (atSend = r[0]));
    await clock.waitForSleepers(1);
    await clock.advance(10_000);
    await until(() => atSend !== undefined, 'the store read at send time');
    expect(atSend!.lastRunAt).toBe('2026-12-02T08:00:10.000Z');
    expect(atSend!.nextRunAt).toBe('2026-12-02T08:00:20.000Z');
    expect(atSend!.runs.at(-1)?.outcome).toBe('started');
  });

  it('skips a run while the session is busy and records it, never stacking runs', async () => {
    const { clock, s1, scheduler } = await setUp();
    const { routine } = await scheduler.create({ name: 'tick', schedule: '*/10 * * * * *', prompt: 'p', timezone: 'UTC' }, 's1', 'model');
    s1.status = 'running';
    await clock.waitForSleepers(1);
    await clock.advance(10_000);
    await until(() => (scheduler.list()[0]?.note ?? '').includes('skipped'), 'the skip');
    expect(scheduler.list().find((r) => r.id === routine.id)?.note).toBe('last run skipped: the session was busy (running) when it came due');
    s1.status = 'idle';
    await clock.waitForSleepers(1);
    await clock.advance(10_000);
    await until(() => s1.sent.length === 1, 'the next run');
  });

  it('runs once on start a run missed while the server was down when within the grace window', async () => {
    const due = new Date(START - 5 * 60_000).toISOString();
    const { s1, onDisk } = await setUp({ routines: [stored({ schedule: '*/1 * * * *', nextRunAt: due })], graceMs: 10 * 60_000 });
    expect(s1.sent).toEqual([{ text: 'summarise my inbox', by: 'routine:inbox' }]);
    const [r] = await onDisk();
    expect(r!.runs.map((x) => x.outcome)).toEqual(['missed', 'ran']);
    expect(r!.runs[0]!.detail).toBe('5 run(s) missed while the server was down');
    expect(r!.nextRunAt).toBe(new Date(START + 60_000).toISOString());
  });

  it('records a run missed beyond the grace window without running it', async () => {
    const due = new Date(START - 3 * 3_600_000).toISOString();
    const { s1, scheduler, onDisk } = await setUp({ routines: [stored({ schedule: '0 5 * * *', timezone: 'UTC', nextRunAt: due })], graceMs: 10 * 60_000 });
    expect(s1.sent).toEqual([]);
    const [r] = await onDisk();
    expect(r!.runs.map((x) => x.outcome)).toEqual(['missed']);
    expect(r!.nextRunAt).toBe('2026-12-03T05:00:00.000Z');
    expect(scheduler.list()[0]!.note).toBe('missed the run due 2026-12-02T05:00:00+00:00 (the server was down)');
  });

  it('disables a routine whose session was deleted, saying why', async () => {
    const due = new Date(START - 60_000).toISOString();
    const { scheduler } = await setUp({ routines: [stored({ sessionId: 'gone', nextRunAt: due })], sessions: {} });
    const [r] = scheduler.list();
    expect(r!.status).toBe('disabled');
    expect(r!.note).toBe('disabled: its session gone was deleted');
    expect(r!.nextRunAt).toBeUndefined();
  });
});
