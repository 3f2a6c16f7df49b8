import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isoInZone, isValidZone, type RoutineHost, type RoutineInput, type RoutineView } from '@tandem/assistant-tools';
import type { Clock } from '@tandem/ai';
import type { SessionStatus } from '@tandem/shared';
import { parseSchedule, type RoutineSchedule } from './routine-schedule.js';
import type { Routine, RoutineRun, RoutineStore } from './routine-store.js';

/** What the scheduler needs of a session: whether it is free, and a way to start a turn in it. */
export interface RoutineSession {
  readonly status: SessionStatus;
  /** The session's turns' owner: a routine's prompt is a message like a driver's. */
  readonly turns: { send(text: string, by: string): unknown };
}

export interface RoutineSchedulerOptions {
  store: RoutineStore;
  clock: Clock;
  sessions: { get(id: string): RoutineSession | undefined };
  /** A run missed while the server was down still runs on start when it is at most this late (1 h). */
  graceMs: number;
  defaultTimezone: string;
  logger: Logger;
}

/** The longest single wait; the schedule is looked at again after it (and on every change). */
const MAX_WAIT_MS = 60 * 60_000;
const MAX_CATCH_UP = 100_000;

/**
 * Runs routines inside the server (requirements K3). Each run is claimed in the store (last run, next
 * run) before its turn starts, so a crash never runs it twice; a run missed while the server
 * was down runs once on start when within the grace window, else it is recorded as missed; a
 * run that comes due while its session is still busy is skipped and recorded, never stacked.
 */
export class RoutineScheduler implements RoutineHost {
  private readonly schedules = new Map<string, RoutineSchedule>();
  private wake = new AbortController();
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: RoutineSchedulerOptions) {}

  async start(): Promise<void> {
    for (const warning of await this.options.store.load()) this.options.logger.warn(warning);
    await this.tick();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake.abort();
    await this.loop;
  }

  list(): RoutineView[] {
    return this.options.store.all().map((r) => this.view(r));
  }

  async create(input: RoutineInput, sessionId: string, by: string): Promise<{ routine: RoutineView; nextRuns: string[] }> {
    const timezone = input.timezone ?? this.options.defaultTimezone;
    if (!isValidZone(timezone)) throw new Error(`"${timezone}" is not an IANA time zone (e.g. Europe/Berlin)`);
    const schedule = parseSchedule(input.schedule, timezone);
    const name = input.name.trim();
    const clash = this.options.store.all().find((r) => r.name === name && r.sessionId === sessionId && r.status === 'active');
    if (clash) throw new Error(`a routine named "${name}" already exists in this session (${clash.id}); cancel it first or choose another name`);
    const now = this.options.clock.now();
    const runs: number[] = [];
    for (let t = schedule.nextAfter(now); t !== undefined && runs.length < 3; t = schedule.nextAfter(t)) runs.push(t);
    if (runs.length === 0) throw new Error(`"${input.schedule}" never runs again after ${isoInZone(now, timezone)}; give a time in the future`);
    const routine: Routine = {
      id: `r-${randomUUID().slice(0, 8)}`,
      name,
      schedule: input.schedule.trim(),
      prompt: input.prompt,
      timezone,
      sessionId,
      createdAt: new Date(now).toISOString(),
      createdBy: by,
      status: 'active',
      nextRunAt: new Date(runs[0]!).toISOString(),
      runs: [],
    };
    await this.options.store.update((all) => void all.push(routine));
    this.rearm();
    return { routine: this.view(routine), nextRuns: runs.map((t) => isoInZone(t, timezone)) };
  }

  async cancel(id: string, by: string): Promise<RoutineView> {
    const routine = this.options.store.get(id);
    if (!routine) throw new Error(`no routine has the id "${id}"; list_routines shows the ids`);
    if (routine.status !== 'active') return this.view(routine);
    await this.options.store.update((all) => {
      const r = all.find((x) => x.id === id)!;
      r.status = 'cancelled';
      r.note = `cancelled by ${by}`;
      delete r.nextRunAt;
    });
    this.rearm();
    return this.view(this.options.store.get(id)!);
  }

  private rearm(): void {
    this.wake.abort();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.wake = new AbortController();
      const next = this.earliestDue();
      const wait = next === undefined ? MAX_WAIT_MS : Math.min(MAX_WAIT_MS, Math.max(0, next - this.options.clock.now()));
      try {
        await this.options.clock.sleep(wait, this.wake.signal);
      } catch {
        if (this.stopped) return;
        continue;
      }
      await this.tick().catch((err: unknown) => this.options.logger.error({ err }, 'routine scheduler tick failed'));
    }
  }

  private earliestDue(): number | undefined {
    let earliest: number | undefined;
    for (const r of this.options.store.all()) {
      if (r.status !== 'active' || !r.nextRunAt) continue;
      const t = Date.parse(r.nextRunAt);
      if (earliest === undefined || t < earliest) earliest = t;
    }
    return earliest;
  }

  /** Handles every active routine whose run is due. */
  private async tick(): Promise<void> {
    const now = this.options.clock.now();
    for (const routine of this.options.store.all()) {
      if (routine.status !== 'active' || !routine.nextRunAt || Date.parse(routine.nextRunAt) > now) continue;
      await this.due(routine, now);
    }
  }

  private async due(routine: Routine, now: number): Promise<void> {
    let schedule: RoutineSchedule;
    try {
      schedule = this.schedule(routine);
    } catch (err) {
      await this.patch(routine.id, (r) => Object.assign(r, { status: 'disabled', note: `disabled: ${(err as Error).message}` }));
      return;
    }
    // The latest run that is due now; earlier ones (while the server was down) are missed.
    let latest = Date.parse(routine.nextRunAt!);
    let skippedOver = 0;
    for (let t = schedule.nextAfter(latest); t !== undefined && t <= now && skippedOver < MAX_CATCH_UP; t = schedule.nextAfter(t)) {
      latest = t;
      skippedOver++;
    }
    const following = schedule.nextAfter(Math.max(now, latest));
    const at = new Date(now).toISOString();
    const late = now - latest;
    const runs: RoutineRun[] = [];
    if (skippedOver > 0) runs.push({ dueAt: routine.nextRunAt!, at, outcome: 'missed', detail: `${skippedOver} run(s) missed while the server was down` });
    if (late > this.options.graceMs) {
      runs.push({
        dueAt: new Date(latest).toISOString(),
        at,
        outcome: 'missed',
        detail: `${Math.round(late / 1000)} s late, past the ${Math.round(this.options.graceMs / 1000)} s grace window`,
      });
      await this.advance(routine.id, runs, following, `missed the run due ${isoInZone(latest, routine.timezone)} (the server was down)`);
      return;
    }
    // Claim the run in the store before it starts: a crash from here on never runs it twice.
    runs.push({ dueAt: new Date(latest).toISOString(), at, outcome: 'started' });
    await this.advance(routine.id, runs, following, undefined, new Date(latest).toISOString());
    await this.fire(routine.id);
  }

  private async fire(id: string): Promise<void> {
    const routine = this.options.store.get(id)!;
    const session = this.options.sessions.get(routine.sessionId);
    if (!session) {
      await this.patch(id, (r) => {
        finishRun(r, 'failed', 'its session no longer exists');
        r.status = 'disabled';
        r.note = `disabled: its session ${r.sessionId} was deleted`;
        delete r.nextRunAt;
      });
      return;
    }
    if (session.status !== 'idle') {
      await this.patch(id, (r) => {
        finishRun(r, 'skipped', `the session was busy (${session.status})`);
        r.note = `last run skipped: the session was busy (${session.status}) when it came due`;
      });
      return;
    }
    try {
      session.turns.send(routine.prompt, `routine:${routine.name}`);
      await this.patch(id, (r) => {
        finishRun(r, 'ran');
        r.note = `last run started a turn at ${isoInZone(this.options.clock.now(), r.timezone)}`;
      });
    } catch (err) {
      await this.patch(id, (r) => {
        finishRun(r, 'skipped', (err as Error).message);
        r.note = `last run skipped: ${(err as Error).message}`;
      });
    }
  }

  private advance(id: string, runs: RoutineRun[], following: number | undefined, note: string | undefined, lastRunAt?: string): Promise<void> {
    return this.patch(id, (r) => {
      r.runs.push(...runs);
      if (lastRunAt) r.lastRunAt = lastRunAt;
      if (note) r.note = note;
      if (following === undefined) {
        delete r.nextRunAt;
        r.status = 'done';
      } else r.nextRunAt = new Date(following).toISOString();
    });
  }

  private patch(id: string, change: (r: Routine) => void): Promise<void> {
    return this.options.store.update((all) => {
      const r = all.find((x) => x.id === id);
      if (r) change(r);
    });
  }

  private schedule(routine: Routine): RoutineSchedule {
    const key = `${routine.schedule}\u0000${routine.timezone}`;
    let schedule = this.schedules.get(key);
    if (!schedule) {
      schedule = parseSchedule(routine.schedule, routine.timezone);
      this.schedules.set(key, schedule);
    }
    return schedule;
  }

  private view(r: Routine): RoutineView {
    let description: string;
    try {
      description = this.schedule(r).describe();
    } catch {
      description = r.schedule;
    }
    const local = (iso: string | undefined) => (iso ? isoInZone(Date.parse(iso), r.timezone) : undefined);
    const nextRunAt = local(r.nextRunAt);
    const lastRunAt = local(r.lastRunAt);
    return {
      id: r.id,
      name: r.name,
      schedule: r.schedule,
      prompt: r.prompt,
      timezone: r.timezone,
      sessionId: r.sessionId,
      status: r.status,
      description,
      ...(nextRunAt ? { nextRunAt } : {}),
      ...(lastRunAt ? { lastRunAt } : {}),
      ...(r.note ? { note: r.note } : {}),
    };
  }
}

function finishRun(r: Routine, outcome: RoutineRun['outcome'], detail?: string): void {
  const last = r.runs.at(-1);
  if (last && last.outcome === 'started') {
    last.outcome = outcome;
    if (detail) last.detail = detail;
  }
}
