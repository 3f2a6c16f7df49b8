import { Cron } from 'croner';
import cronstrue from 'cronstrue';

/**
 * A routine's schedule: a cron expression of 5 fields (minute first) or 6 (seconds first), or
 * an ISO 8601 date-time for a single run, read in an IANA zone. Checked by croner; described in
 * words by cronstrue.
 */
export interface RoutineSchedule {
  readonly once: boolean;
  /** The first run strictly after `afterMs`, or undefined when there is none. */
  nextAfter(afterMs: number): number | undefined;
  describe(): string;
}

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}T/;

export function parseSchedule(schedule: string, timezone: string): RoutineSchedule {
  const text = schedule.trim();
  const once = ISO_LIKE.test(text);
  if (!once) {
    const fields = text.split(/\s+/).length;
    if (fields !== 5 && fields !== 6) {
      throw new Error(
        `"${schedule}" has ${fields} fields; a schedule is a cron expression of 5 fields (min hour day month weekday), 6 with seconds first, or an ISO date-time such as 2026-12-24T18:00`,
      );
    }
  }
  let cron: Cron;
  try {
    cron = new Cron(text, { timezone, paused: true });
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^CronPattern: /, '') : String(err);
    throw new Error(`"${schedule}" is not a valid schedule: ${why}`);
  }
  return {
    once,
    nextAfter(afterMs) {
      return cron.nextRun(new Date(afterMs))?.getTime();
    },
    describe() {
      if (once) return `once, at ${text}`;
      try {
        return cronstrue.toString(text, { use24HourTimeFormat: true, verbose: false });
      } catch {
        return text;
      }
    },
  };
}
